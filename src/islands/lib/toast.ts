import { signal } from '@preact/signals-react';

/*
 * Toasts shared by every island on the page (one signal, many roots). At most one is
 * visible (spec section 4), so a new toast replaces the current one.
 */

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

export interface Toast extends ToastInput {
  id: number;
}

export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function toast(input: ToastInput): void {
  toasts.value = [{ ...input, id: nextId++ }];
}

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

const FLASH_KEY = 'csa:flash';

/** Keeps a toast for the next page, for flows that end in a navigation. */
export function toastAfterNavigation(input: ToastInput): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(input));
  } catch {
    // Storage can be disabled; the toast is then simply not shown.
  }
}

export function takeNavigationToast(): ToastInput | null {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(FLASH_KEY);
    return JSON.parse(raw) as ToastInput;
  } catch {
    return null;
  }
}
