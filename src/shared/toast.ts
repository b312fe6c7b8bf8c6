/** A toast as the server asks for one (a flash after a redirect) and the islands show it. */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}
