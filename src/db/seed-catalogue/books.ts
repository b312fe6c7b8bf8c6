import type { SeedProduct } from './seed-product.ts';

/** The demo store's books. */
export const books: SeedProduct[] = [
  {
    productType: 'book',
    brand: 'The Old Man and the Sea',
    model: 'BK-OLDMAN-001',
    size: '127',
    quantity: 6,
    price: 2.0,
    imageUrl: '/static/images/products/book-old-man-and-the-sea.svg',
    description:
      'AUTHOR:Ernest Hemingway;;An ageing Cuban fisherman battles a giant marlin far out in the Gulf Stream. A well-loved used paperback of a short, unforgettable classic.',
    playEnabled: true,
    createdDaysAgo: 120,
  },
  {
    productType: 'book',
    brand: 'Barbarian Days: A Surfing Life',
    model: 'BK-BARBDAYS-001',
    size: '447',
    quantity: 4,
    price: 18.0,
    imageUrl: '/static/images/products/book-barbarian-days.svg',
    description:
      'AUTHOR:William Finnegan;;A Pulitzer Prize-winning memoir of a lifetime chasing waves from Hawaii to Fiji and beyond. The best book ever written about surfing.',
    playEnabled: false,
    createdDaysAgo: 30,
  },
  {
    productType: 'book',
    brand: 'Cannery Row',
    model: 'BK-CANNERY-001',
    size: '181',
    quantity: 5,
    price: 6.5,
    imageUrl: '/static/images/products/book-cannery-row.svg',
    description:
      'AUTHOR:John Steinbeck;;Mack, the boys and Doc throw a party on Monterey’s sardine-canning street. Warm, funny and full of the California coast.',
    playEnabled: false,
    createdDaysAgo: 66,
  },
  {
    productType: 'book',
    brand: 'Jaws',
    model: 'BK-JAWS-001',
    size: '278',
    quantity: 0,
    price: 9.99,
    imageUrl: '/static/images/products/book-jaws.svg',
    description:
      'AUTHOR:Peter Benchley;;A great white shark terrorises the resort town of Amity just as summer begins. The thriller that kept a generation out of the water.',
    playEnabled: false,
    createdDaysAgo: 52,
  },
  {
    productType: 'book',
    brand: 'The Perfect Storm',
    model: 'BK-PERFSTORM-001',
    size: '227',
    quantity: 3,
    price: 14.0,
    imageUrl: '/static/images/products/book-the-perfect-storm.svg',
    description:
      'AUTHOR:Sebastian Junger;;The true story of the swordfishing boat Andrea Gail and the 1991 storm that swallowed her. Gripping, humane reporting about men and the sea.',
    playEnabled: false,
    createdDaysAgo: 88,
  },
  {
    productType: 'book',
    brand: 'Where the Crawdads Sing',
    model: 'BK-CRAWDADS-001',
    size: '384',
    quantity: 11,
    price: 16.0,
    imageUrl: '/static/images/products/book-where-the-crawdads-sing.svg',
    description:
      'AUTHOR:Delia Owens;;The Marsh Girl grows up alone in the North Carolina wetlands until a death in town pulls her into the light. A lush mystery and coming-of-age story.',
    playEnabled: false,
    donateEnabled: true,
    createdDaysAgo: 1,
  },
  {
    productType: 'book',
    brand: 'Gift from the Sea',
    model: 'BK-GIFTSEA-001',
    size: '128',
    quantity: 9,
    price: 8.0,
    imageUrl: '/static/images/products/book-gift-from-the-sea.svg',
    description:
      'AUTHOR:Anne Morrow Lindbergh;;Short reflections on simplicity, solitude and love, each inspired by a seashell found on the beach. The perfect pocket companion for a slow morning.',
    playEnabled: true,
    createdDaysAgo: 40,
  },
];
