import type { SeedProduct } from './seed-catalogue/seed-product.ts';
import { sunglasses } from './seed-catalogue/sunglasses.ts';
import { tshirts } from './seed-catalogue/tshirts.ts';
import { shoes } from './seed-catalogue/shoes.ts';
import { books } from './seed-catalogue/books.ts';

/** The demo catalogue: seven of each type, each type in its own file (seed-catalogue/). */
export const seedProducts: SeedProduct[] = [...sunglasses, ...tshirts, ...shoes, ...books];
