import { useEffect, useState } from 'react';
import { showDeviceNotification } from './lib/device-alerts.ts';
import { toast } from './lib/toast.ts';
import { BellIcon } from '../shared/ui/icons.tsx';

/*
 * The games page's 'Enable game alerts' banner (spec sections 2 and 8). Local only: it asks the
 * browser for permission to show notifications and shows one; the bell then turns new game
 * notifications into device notifications (lib/device-alerts.ts). Nothing is sent to the server.
 * The banner hides itself where it has nothing to offer (no Notification API, permission
 * already granted) and stays away once dismissed on this device.
 */

export const DISMISSED_KEY = 'csa-game-alerts-dismissed';

function dismissedBefore(): boolean {
  try {
    return window.localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberDismissed(): void {
  try {
    window.localStorage.setItem(DISMISSED_KEY, '1');
  } catch {
    // Storage can be unavailable (private modes); the banner then only hides for this visit.
  }
}

export default function GameAlerts() {
  const [visible, setVisible] = useState(true);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!('Notification' in window) || Notification.permission === 'granted' || dismissedBefore()) setVisible(false);
  }, []);

  if (!visible) return null;

  async function enable() {
    if (!('Notification' in window)) {
      setVisible(false);
      return;
    }
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission === 'granted') {
        toast({ title: 'Notifications enabled', description: "We'll let you know when your games start." });
        // Shown at once, so the player sees what an alert looks like on this device.
        showDeviceNotification(
          'Game alerts are on',
          'While the store is open in a tab, you will see here when your games start and end.',
          'csa-alerts-on',
          null,
        );
        setVisible(false);
      } else if (permission === 'denied') {
        toast({
          title: 'Notifications blocked',
          description: 'Allow notifications for this site in your browser settings to get game alerts.',
          variant: 'destructive',
        });
      }
    } catch {
      toast({ title: 'Notifications unavailable', description: 'This browser could not turn on notifications.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  function dismiss() {
    rememberDismissed();
    setVisible(false);
  }

  return (
    <section aria-labelledby="game-alerts-title" className="flex flex-wrap items-center gap-3 rounded-2xl border border-sea/30 bg-sea/10 p-4">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-sea-dark text-white">
        <BellIcon className="h-5 w-5" />
      </span>
      <div className="min-w-0 flex-1 basis-48">
        <h2 id="game-alerts-title" className="m-0 text-base font-bold text-ink">
          Enable game alerts
        </h2>
        <p className="m-0 mt-0.5 text-sm text-slate-700">Get a notification on this device when your games start.</p>
      </div>
      <div className="flex shrink-0 gap-2">
        <button
          type="button"
          onClick={dismiss}
          className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 cursor-pointer hover:bg-slate-50"
        >
          Not now
        </button>
        <button
          type="button"
          onClick={enable}
          disabled={busy}
          className="rounded-full bg-sea-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-sea disabled:opacity-60"
        >
          Turn on
        </button>
      </div>
    </section>
  );
}
