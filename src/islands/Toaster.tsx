import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { dismissToast, toasts, type ToastInput } from './lib/toast.ts';

const AUTO_CLOSE_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

/**
 * The toast viewport. `initial` is the toast the server carried over from the previous page
 * (a form post's or an island's flash cookie).
 */
export default function Toaster({ initial = null }: { initial?: ToastInput | null }) {
  useSignals();
  const [initialOpen, setInitialOpen] = useState(initial !== null);
  // The shared toasts are this browser's: the server's render (and the first render here, which
  // must match it) shows only what the server carried over. A test process that also runs islands
  // holds their toasts in the same module, and they showed on pages it rendered as the server.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const regionRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        event.preventDefault();
        regionRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const current = hydrated ? toasts.value[0] : undefined;
  const shown: (ToastInput & { id: number }) | undefined = current ?? (initialOpen && initial ? { ...initial, id: 0 } : undefined);

  return (
    <section
      ref={regionRef}
      aria-label="Notifications (F8)"
      tabIndex={-1}
      className="fixed z-50 left-0 right-0 bottom-20 md:bottom-auto md:top-4 md:left-auto md:right-4 flex justify-center px-3 pointer-events-none outline-none"
    >
      <div role="status" aria-live="polite" aria-atomic="true" className="w-full md:w-105 max-w-105">
        <ol className="m-0 p-0 list-none">
          {shown && <ToastCard key={shown.id} toast={shown} onClose={() => (shown.id === 0 ? setInitialOpen(false) : dismissToast(shown.id))} />}
        </ol>
      </div>
    </section>
  );
}

function ToastCard({ toast: item, onClose }: { toast: ToastInput & { id: number }; onClose: () => void }) {
  const [offset, setOffset] = useState(0);
  const start = useRef<number | null>(null);

  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const timer = setTimeout(() => close.current(), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, []);

  const destructive = item.variant === 'destructive';
  return (
    <li
      data-toast=""
      data-variant={item.variant ?? 'default'}
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border p-4 shadow-lg touch-pan-y ${
        destructive ? 'bg-red-600 text-white border-red-700' : 'bg-white text-ink border-slate-200'
      }`}
      style={{ transform: offset ? `translateX(${offset}px)` : undefined }}
      onPointerDown={(event) => {
        start.current = event.clientX;
      }}
      onPointerMove={(event) => {
        if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
      }}
      onPointerUp={() => {
        if (offset > SWIPE_THRESHOLD_PX) onClose();
        start.current = null;
        setOffset(0);
      }}
    >
      <div className="flex-1 min-w-0">
        <p className="m-0 font-semibold text-sm">{item.title}</p>
        {item.description && <p className={`m-0 mt-1 text-sm ${destructive ? 'text-white' : 'text-slate-700'}`}>{item.description}</p>}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label="Close"
        className={`shrink-0 rounded-md p-1 leading-none text-lg bg-transparent cursor-pointer ${destructive ? 'text-white' : 'text-slate-600'}`}
      >
        ×
      </button>
    </li>
  );
}
