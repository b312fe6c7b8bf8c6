import type { Variant } from '../../../domain/inventory/variants.ts';
import { centsToDollars } from '../../../shared/money.ts';

/*
 * The product form's Sizes (issue 38): one row per variant (size, SKU, stock, an optional price
 * of its own, Remove) and a blank 'Add a size' row, all plain form fields, so it works without
 * JavaScript; a second size is added by filling the blank row and saving (a new blank row then
 * follows). Each row posts 'variants.{n}.{field}', and its errors come back under the same names.
 */

type Values = Record<string, string | boolean>;

const SIZED_TYPES = ['tshirt', 'shoe'];
const ROW = /^variants\.(\d{1,2})\./;

const rowKey = (index: number, field: string) => `variants.${index}.${field}`;
const textOf = (values: Values, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');

/** The row indices the values carry, in order. */
function rowsIn(values: Values): number[] {
  const rows = new Set<number>();
  for (const key of Object.keys(values)) {
    const match = ROW.exec(key);
    if (match) rows.add(Number(match[1]));
  }
  return [...rows].sort((a, b) => a - b);
}

/** A row nobody has filled: the 'Add a size' row. */
const isBlank = (values: Values, index: number) => ['id', 'size', 'sku', 'quantity', 'price'].every((field) => textOf(values, rowKey(index, field)) === '');

/** Tees and shoes are edited by size; any other product once it has more than one. */
export const editsSizes = (type: string, values: Values) => SIZED_TYPES.includes(type) || rowsIn(values).length > 1;

/** The form's rows for a product's variants, with the counts the admin sees (sent back as `quantitySeen`). */
export function sizeValues(variants: readonly Variant[]): Values {
  const values: Values = {};
  variants.forEach((variant, index) => {
    values[rowKey(index, 'id')] = String(variant.id);
    values[rowKey(index, 'size')] = variant.size;
    values[rowKey(index, 'sku')] = variant.sku;
    values[rowKey(index, 'price')] = variant.priceCents === null ? '' : centsToDollars(variant.priceCents).toFixed(2);
    values[rowKey(index, 'quantity')] = String(variant.quantity);
    values[rowKey(index, 'quantitySeen')] = String(variant.quantity);
  });
  return values;
}

/** After a 409, each size's `quantitySeen` becomes the count its message names, so saving again applies the admin's figure. */
export function withCurrentCounts(values: Values, variants: readonly Variant[]): Values {
  const next = { ...values };
  for (const index of rowsIn(values)) {
    const variant = variants.find((v) => String(v.id) === textOf(values, rowKey(index, 'id')));
    if (variant) next[rowKey(index, 'quantitySeen')] = String(variant.quantity);
  }
  return next;
}

const inputClass = (error?: string) => `mt-1 h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`;

function Cell({
  index,
  field,
  label,
  values,
  errors,
  row,
  ...input
}: {
  index: number;
  field: string;
  label: string;
  /** Which row, for a screen reader ('size M', 'new size'): every row has the same visible labels. */
  row: string;
  values: Values;
  errors: Record<string, string>;
  type?: string;
  min?: string;
  step?: string;
  inputMode?: 'decimal' | 'numeric';
  maxLength?: number;
}) {
  const name = rowKey(index, field);
  const id = `field-variants-${index}-${field}`;
  const error = errors[name];
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {label}
        <span className="sr-only">{`, ${row}`}</span>
      </label>
      <input
        {...input}
        id={id}
        name={name}
        defaultValue={textOf(values, name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClass(error)}
      />
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

function SizeRow({ index, values, errors, adding }: { index: number; values: Values; errors: Record<string, string>; adding: boolean }) {
  const id = textOf(values, rowKey(index, 'id'));
  const removeError = errors[rowKey(index, 'remove')] ?? errors[rowKey(index, 'id')];
  const removeId = `field-variants-${index}-remove`;
  const row = adding ? 'new size' : `size ${textOf(values, rowKey(index, 'size')) || index + 1}`;
  return (
    <div className={`rounded-lg p-3 ${adding ? 'border border-dashed border-slate-300' : 'bg-slate-50'}`}>
      {adding && <p className="m-0 mb-1 text-sm font-semibold">Add a size</p>}
      {id && <input type="hidden" name={rowKey(index, 'id')} value={id} />}
      {id && <input type="hidden" name={rowKey(index, 'quantitySeen')} value={textOf(values, rowKey(index, 'quantitySeen'))} />}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,5rem)_minmax(0,1fr)_minmax(0,6rem)_minmax(0,8rem)]">
        <Cell index={index} row={row} field="size" label="Size" values={values} errors={errors} maxLength={40} />
        <Cell index={index} row={row} field="sku" label="SKU" values={values} errors={errors} maxLength={64} />
        <Cell index={index} row={row} field="quantity" label="Stock" values={values} errors={errors} type="number" min="0" step="1" inputMode="numeric" />
        <Cell
          index={index}
          row={row}
          field="price"
          label="Price ($, optional)"
          values={values}
          errors={errors}
          type="number"
          min="0.01"
          step="0.01"
          inputMode="decimal"
        />
      </div>
      {id && (
        <label htmlFor={removeId} className="mt-2 flex items-center gap-2 text-sm">
          <input
            id={removeId}
            type="checkbox"
            name={rowKey(index, 'remove')}
            defaultChecked={values[rowKey(index, 'remove')] === 'on'}
            aria-describedby={removeError ? `${removeId}-error` : undefined}
            className="h-4 w-4"
          />
          Remove this size<span className="sr-only">{` (${row})`}</span>
        </label>
      )}
      {removeError && (
        <p id={`${removeId}-error`} className="m-0 mt-1 text-sm text-red-600">
          {removeError}
        </p>
      )}
    </div>
  );
}

/** The Sizes fieldset: the rows the values carry, then a blank row to add one. */
export function SizesFieldset({ values, errors, shoe }: { values: Values; errors: Record<string, string>; shoe: boolean }) {
  const rows = rowsIn(values);
  const last = rows.at(-1);
  const filled = rows.filter((index) => !isBlank(values, index));
  const blankRow = last !== undefined && isBlank(values, last) ? last : (last ?? -1) + 1;
  const listError = errors.variants;
  return (
    <fieldset className="m-0 flex flex-col gap-3 rounded-xl border border-slate-200 p-4" aria-describedby="sizes-hint">
      <legend className="px-1 text-sm font-medium">Sizes</legend>
      <p id="sizes-hint" className="m-0 text-xs text-slate-600">
        {`Each size has its own SKU and stock${shoe ? ' (US sizes)' : ''}; its price is the product's unless you give it one. A size can be removed only while none of it is held or sold and no game, team buy or auction is for it.`}
      </p>
      {listError && (
        <p id="field-variants-error" className="m-0 text-sm text-red-600">
          {listError}
        </p>
      )}
      {filled.map((index) => (
        <SizeRow key={index} index={index} values={values} errors={errors} adding={false} />
      ))}
      <SizeRow key={blankRow} index={blankRow} values={values} errors={errors} adding />
    </fieldset>
  );
}
