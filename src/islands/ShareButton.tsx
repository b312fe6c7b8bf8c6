import { toast } from './lib/toast.ts';
import { ShareIcon } from '../shared/ui/icons.tsx';

export interface ShareButtonProps {
  title: string;
  text: string;
  url: string;
}

/** Shares the product with the Web Share API, or copies its link where sharing is not offered. */
export default function ShareButton({ title, text, url }: ShareButtonProps) {
  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, text, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'The product link is on your clipboard.' });
    } catch {
      toast({ title: 'Copy this link', description: url });
    }
  }
  return (
    <button
      type="button"
      onClick={share}
      className="inline-flex items-center gap-2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink cursor-pointer hover:border-ink"
    >
      <ShareIcon className="h-4 w-4" />
      Share
    </button>
  );
}
