import type { RefObject } from 'react';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';
import { playPath } from './join.ts';

/** Where a join had to stop, and the one place that fixes it (the picks are kept for the way back). */
export interface Detour {
  title: string;
  text: string;
  /** What is missing, in the profile's own words (an incomplete profile). */
  missing?: string[];
  href: string;
  actionText: string;
}

/** The link back to this game (of the chosen size) once the detour is done. */
export const backToPlay = (productId: number, size?: string) => `next=${encodeURIComponent(playPath(productId, size))}`;

/** A card is needed: before the server is asked (no card on file) or after it said 402. */
export function cardDetour(productId: number, size?: string): Detour {
  return {
    title: 'Payment method required',
    text: 'Add a payment card to your profile to enter games. Your $1 entry is only held on the card until the game ends.',
    href: `/profile?tab=payment&${backToPlay(productId, size)}`,
    actionText: 'Add Payment Method',
  };
}

/** PlayGame opens it for every detour of the join: no card, a declined card, an incomplete profile. */
export function DetourDialog({ id, dialogRef, detour }: { id: string; dialogRef: RefObject<HTMLDialogElement | null>; detour: Detour }) {
  return (
    <ConfirmDialog
      dialogRef={dialogRef}
      id={`${id}-detour`}
      title={detour.title}
      text={detour.text}
      action={
        <a href={detour.href} className="rounded-lg bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral">
          {detour.actionText}
        </a>
      }
    >
      {detour.missing?.length ? (
        <ul className="m-0 mt-3 list-disc pl-5 text-sm" data-missing="">
          {detour.missing.map((field) => (
            <li key={field}>{field[0]!.toUpperCase() + field.slice(1)}</li>
          ))}
        </ul>
      ) : null}
    </ConfirmDialog>
  );
}
