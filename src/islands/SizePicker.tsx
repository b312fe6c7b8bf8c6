import { useEffect, useRef, useState } from 'react';

export interface SizePickerProps {
  productId: number;
  /** In the picker's order; a sold-out size is shown, disabled and named so. */
  sizes: { size: string; soldOut: boolean }[];
  /** The size `?size=` chose, or null. */
  chosen: string | null;
  /** The tab the page shows, kept across a choice. */
  tab?: 'competition';
}

/**
 * The product page's size picker (issue 38): a GET form, so the choice is the URL
 * (`/product/{id}?size=M`) and works without JavaScript through its Choose button. Once
 * hydrated, a change submits at once and the button goes; the page comes back with focus on
 * the chosen size (`#size`), so arrow keys go on from where they were.
 */
export default function SizePicker({ productId, sizes, chosen, tab }: SizePickerProps) {
  const [live, setLive] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setLive(true);
    if (window.location.hash === '#size') form.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, []);
  return (
    <form ref={form} id="size" method="get" action={`/product/${productId}#size`} className="mt-5 scroll-mt-24" data-size-picker="">
      {tab && <input type="hidden" name="tab" value={tab} />}
      <fieldset className="m-0 border-0 p-0">
        <legend className="mb-2 p-0 text-sm font-bold">Size</legend>
        <div className="flex flex-wrap gap-2">
          {sizes.map(({ size, soldOut }) => (
            <label key={size} className={soldOut ? 'cursor-not-allowed' : 'cursor-pointer'}>
              <input
                type="radio"
                name="size"
                value={size}
                defaultChecked={size === chosen}
                disabled={soldOut}
                // Named in full: text split across the chip and a hidden span is read with a gap ('XL , sold out').
                aria-label={soldOut ? `${size}, sold out` : undefined}
                onChange={(event) => event.currentTarget.form?.requestSubmit()}
                className="peer sr-only"
              />
              <span className="inline-flex h-11 min-w-11 items-center justify-center rounded-lg border-2 border-slate-300 bg-white px-3 font-bold text-ink peer-checked:border-ink peer-checked:bg-ink peer-checked:text-white peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-sea-dark peer-disabled:border-dashed peer-disabled:bg-slate-100 peer-disabled:text-slate-500 peer-disabled:line-through">
                {size}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {/* Without JavaScript the choice is sent with this; with it, a change sends itself. */}
      <button
        type="submit"
        hidden={live}
        className="mt-2 rounded-lg border-2 border-ink bg-white px-4 py-1.5 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50"
      >
        Choose
      </button>
    </form>
  );
}
