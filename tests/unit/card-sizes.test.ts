import { describe, expect, test } from 'bun:test';
import { cardSizeText, chosenVariant, isSizeOf } from '../../src/domain/catalog/sizes.ts';

/* The card's size line and the product page's choice (issue 38), on variants in the picker's order. */

const sizes = (...pairs: [string, number][]) => pairs.map(([size, quantity]) => ({ size, quantity }));

describe('a card names the sizes left', () => {
  test('first to last with a unit left, with an en dash; sold-out ends leave the range', () => {
    expect(cardSizeText('tshirt', sizes(['S', 1], ['M', 2], ['L', 3], ['XL', 1]))).toBe('S–XL');
    expect(cardSizeText('tshirt', sizes(['S', 0], ['M', 2], ['L', 0], ['XL', 1]))).toBe('M–XL');
    expect(cardSizeText('shoe', sizes(['8', 1], ['9', 1], ['10.5', 0]))).toBe('8–9');
  });

  test("one size of several left is 'Only L left'; none left says nothing (the stock badge does)", () => {
    expect(cardSizeText('tshirt', sizes(['S', 0], ['M', 0], ['L', 1]))).toBe('Only L left');
    expect(cardSizeText('tshirt', sizes(['S', 0], ['M', 0]))).toBeNull();
  });

  test('one variant: a tee names its size; sunglasses and books (a page count) say nothing', () => {
    expect(cardSizeText('tshirt', sizes(['M', 4]))).toBe('M');
    expect(cardSizeText('sunglasses', sizes(['58mm', 4]))).toBeNull();
    expect(cardSizeText('book', sizes(['320', 4]))).toBeNull();
    expect(cardSizeText('sunglasses', sizes(['', 4]))).toBeNull();
  });
});

describe('the page chooses a size', () => {
  const tee = sizes(['S', 1], ['M', 0], ['L', 2]);
  test("?size= names one of the product's sizes exactly; anything else chooses none", () => {
    expect(chosenVariant(tee, 'L')?.size).toBe('L');
    expect(chosenVariant(tee, 'M')?.size).toBe('M');
    for (const other of [undefined, '', 'l', 'XL', 'L ']) expect(chosenVariant(tee, other)).toBeUndefined();
  });

  test('a one-variant product is always its variant, and no ?size= of it is a page of its own', () => {
    expect(chosenVariant(sizes(['M', 1]), undefined)?.size).toBe('M');
    expect(isSizeOf(sizes(['M', 1]), 'M')).toBe(false);
    expect(isSizeOf(tee, 'S')).toBe(true);
    expect(isSizeOf(tee, 'XL')).toBe(false);
  });
});
