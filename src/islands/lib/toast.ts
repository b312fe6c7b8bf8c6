import { signal } from '@preact/signals-react';
import type { ToastInput } from '../../shared/toast.ts';

/*
 * Toasts shared by every island on the page (one signal, many roots). At most one is
 * visible (spec section 4), so a new toast replaces the current one.
 */

export type { ToastInput };

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

/**
 * Keeps a toast for the next page, for flows that end in a navigation. It rides in the same
 * short-lived cookie the server uses for form posts, so the next page renders it.
 */
export function toastAfterNavigation(input: ToastInput): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the flash cookie is the same one the server sets on a redirect; it must be readable on the next page.
  document.cookie = `csa_flash=${encodeURIComponent(JSON.stringify(input))}; path=/; max-age=60; samesite=lax`;
}
