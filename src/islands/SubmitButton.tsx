import { useEffect, useRef, useState } from 'react';

export interface SubmitButtonProps {
  label: string;
  busyLabel: string;
}

/** A form's submit button that reads `busyLabel` and disables itself while the form posts. */
export default function SubmitButton({ label, busyLabel }: SubmitButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const form = button.current?.form;
    if (!form) return;
    const onSubmit = () => setBusy(true);
    // Coming back through the browser's history shows the page as it was left.
    const onShow = () => setBusy(false);
    form.addEventListener('submit', onSubmit);
    window.addEventListener('pageshow', onShow);
    return () => {
      form.removeEventListener('submit', onSubmit);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);
  return (
    <button
      ref={button}
      type="submit"
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (busy) event.preventDefault();
      }}
      className="rounded-lg bg-ink px-6 py-3 font-bold text-white cursor-pointer hover:bg-ink-light aria-disabled:opacity-60 aria-disabled:cursor-wait"
    >
      {busy ? busyLabel : label}
    </button>
  );
}
