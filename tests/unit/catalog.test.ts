import { describe, expect, test } from 'bun:test';
import { parseDescription, resolveImageUrl, stockLabel } from '../../src/domain/catalog/catalog.ts';

describe('catalogue helpers', () => {
  test('image path resolution of spec section 3', () => {
    expect(resolveImageUrl('', 'shoe')).toBe('/static/images/defaults/shoe.svg');
    expect(resolveImageUrl('   ', 'book')).toBe('/static/images/defaults/book.svg');
    expect(resolveImageUrl('uploads/null.png', 'tshirt')).toBe('/static/images/defaults/tshirt.svg');
    expect(resolveImageUrl('/x/undefined', 'sunglasses')).toBe('/static/images/defaults/sunglasses.svg');
    expect(resolveImageUrl('https://cdn.example/a.png', 'shoe')).toBe('https://cdn.example/a.png');
    expect(resolveImageUrl('data:image/png;base64,AAAA', 'shoe')).toBe('data:image/png;base64,AAAA');
    expect(resolveImageUrl('uploads/a.png', 'shoe')).toBe('/uploads/a.png');
    expect(resolveImageUrl('/uploads/a.png', 'shoe')).toBe('/uploads/a.png');
  });

  test('description markers', () => {
    expect(parseDescription('BADGE:New;;Fresh frames')).toEqual({ badge: 'New', text: 'Fresh frames' });
    expect(parseDescription('AUTHOR:John Steinbeck;;A street in Monterey')).toEqual({ author: 'John Steinbeck', text: 'A street in Monterey' });
    expect(parseDescription('Plain')).toEqual({ text: 'Plain' });
  });

  test('stock labels of spec section 4', () => {
    expect(stockLabel(0)).toBe('Out of Stock');
    expect(stockLabel(1)).toBe('Low Stock');
    expect(stockLabel(5)).toBe('Low Stock');
    expect(stockLabel(6)).toBe('In Stock');
  });
});
