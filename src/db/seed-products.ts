import type { ProductType } from './schema.ts';

/** One demo product; prices in dollars, as an admin would type them. */
export interface SeedProduct {
  productType: ProductType;
  /** For books: the book's title. */
  brand: string;
  /** The SKU. */
  model: string;
  /** For books: the page count. */
  size: string;
  quantity: number;
  price: number;
  imageUrl: string;
  /** Sunglasses may start with 'BADGE:{text};;'; books are 'AUTHOR:{author};;{summary}'. */
  description: string;
  playEnabled: boolean;
  bidEnabled?: boolean;
  /** For the Newest Arrivals order. */
  createdDaysAgo: number;
}

export const seedProducts: SeedProduct[] = [
  // ---------------------------------------------------------------- sunglasses
  {
    productType: 'sunglasses',
    brand: 'Ray-Ban',
    model: 'RB3025-L0205',
    size: '58-14-135',
    quantity: 12,
    price: 171.0,
    imageUrl: '/static/images/products/rayban-aviator-classic.svg',
    description:
      'BADGE:Best Seller;;The original Aviator in a gold metal frame with G-15 green glass lenses. A timeless teardrop shape that has looked right on every face since 1937.',
    playEnabled: false,
    createdDaysAgo: 94,
  },
  {
    productType: 'sunglasses',
    brand: 'Ray-Ban',
    model: 'RB2140-901',
    size: '50mm',
    quantity: 4,
    price: 163.0,
    imageUrl: '/static/images/products/rayban-original-wayfarer.svg',
    description:
      'BADGE:Classic;;The Original Wayfarer in glossy black acetate with G-15 lenses. Bold, tilted-forward and instantly recognisable from the boardwalk to the bar.',
    playEnabled: true,
    createdDaysAgo: 71,
  },
  {
    productType: 'sunglasses',
    brand: 'Oakley',
    model: 'OO9208-46',
    size: '38mm',
    quantity: 0,
    price: 213.0,
    imageUrl: '/static/images/products/oakley-radar-ev-path.svg',
    description:
      'Radar EV Path shield with a Prizm lens that boosts contrast on the road and the trail. Light, grippy and built to stay put on a long ride down PCH.',
    playEnabled: false,
    createdDaysAgo: 48,
  },
  {
    productType: 'sunglasses',
    brand: 'Persol',
    model: 'PO0649-24/31',
    size: '54-20-140',
    quantity: 3,
    price: 330.0,
    imageUrl: '/static/images/products/persol-po0649.svg',
    description:
      'Hand-finished Havana acetate with crystal brown lenses and the signature Supreme Arrow hinge. Italian craftsmanship with a relaxed, vintage pilot shape.',
    playEnabled: false,
    createdDaysAgo: 110,
  },
  {
    productType: 'sunglasses',
    brand: 'Maui Jim',
    model: 'B202-2M',
    size: '65-13-127',
    quantity: 6,
    price: 299.0,
    imageUrl: '/static/images/products/maui-jim-peahi.svg',
    description:
      'BADGE:Polarized;;Peahi wraparounds with Blue Hawaii PolarizedPlus2 lenses that cut glare off the water. Made for long days on the boat or the sand.',
    playEnabled: false,
    createdDaysAgo: 12,
  },
  {
    productType: 'sunglasses',
    brand: 'Costa',
    model: 'TF11-OGMGLP',
    size: '59-16-125',
    quantity: 9,
    price: 209.0,
    imageUrl: '/static/images/products/costa-fantail.svg',
    description:
      'BADGE:New;;Fantail in matte black with green mirror 580G polarized glass. A sporty, lightweight wrap that fishermen and beach walkers both swear by.',
    playEnabled: true,
    createdDaysAgo: 2,
  },
  {
    productType: 'sunglasses',
    brand: 'Oliver Peoples',
    model: 'OV5217S-1001',
    size: '47-23-150',
    quantity: 2,
    price: 400.0,
    imageUrl: '/static/images/products/oliver-peoples-gregory-peck.svg',
    description:
      'Gregory Peck Sun, a softly rounded tortoise acetate frame inspired by the actor’s own glasses. Understated, beautifully made and quietly expensive-looking.',
    playEnabled: false,
    bidEnabled: true,
    createdDaysAgo: 27,
  },

  // ---------------------------------------------------------------- t-shirts
  {
    productType: 'tshirt',
    brand: 'Patagonia',
    model: '38504-WHI',
    size: 'M',
    quantity: 14,
    price: 45.0,
    imageUrl: '/static/images/products/patagonia-p6-logo-tee.svg',
    description:
      'P-6 Logo Responsibili-Tee made from recycled cotton and recycled polyester. Soft, durable and printed with the classic Fitz Roy skyline.',
    playEnabled: false,
    createdDaysAgo: 63,
  },
  {
    productType: 'tshirt',
    brand: 'Vans',
    model: 'VN000GGG-BLK',
    size: 'L',
    quantity: 18,
    price: 12.0,
    imageUrl: '/static/images/products/vans-classic-tee.svg',
    description:
      'Vans Classic tee in black cotton jersey with a checkerboard chest print. End-of-season clearance price, same everyday fit.',
    playEnabled: true,
    createdDaysAgo: 85,
  },
  {
    productType: 'tshirt',
    brand: 'Billabong',
    model: 'ABYZT01234-NVY',
    size: 'S',
    quantity: 4,
    price: 30.0,
    imageUrl: '/static/images/products/billabong-arch-wave-tee.svg',
    description:
      'Arch Wave tee in navy with the classic Billabong wave graphic. A laid-back, pre-shrunk cotton tee for after the session.',
    playEnabled: true,
    createdDaysAgo: 39,
  },
  {
    productType: 'tshirt',
    brand: 'Rip Curl',
    model: 'CTEGP9-BLU',
    size: 'XL',
    quantity: 0,
    price: 32.0,
    imageUrl: '/static/images/products/rip-curl-search-icon-tee.svg',
    description:
      'Search Icon tee in ocean blue with a sun-and-swell chest emblem. Relaxed fit and a heavy cotton feel that softens with every wash.',
    playEnabled: false,
    createdDaysAgo: 101,
  },
  {
    productType: 'tshirt',
    brand: 'Lululemon',
    model: 'LM3DWPS-HRD',
    size: 'M',
    quantity: 6,
    price: 78.0,
    imageUrl: '/static/images/products/lululemon-metal-vent-tech.svg',
    description:
      'Metal Vent Tech short sleeve 2.0 in heathered red. Seamless, breathable knit with anti-stink fabric for runs, workouts and hot afternoons.',
    playEnabled: false,
    createdDaysAgo: 19,
  },
  {
    productType: 'tshirt',
    brand: 'Supreme',
    model: 'SS24-BOXLOGO-WHT',
    size: 'L',
    quantity: 1,
    price: 189.0,
    imageUrl: '/static/images/products/supreme-box-logo-tee.svg',
    description:
      'Deadstock white Box Logo tee with the iconic red box on the chest. Unworn, tags attached and ready for a collector.',
    playEnabled: false,
    bidEnabled: true,
    createdDaysAgo: 5,
  },
  {
    productType: 'tshirt',
    brand: 'Stussy',
    model: '1904870-SAND',
    size: 'M',
    quantity: 7,
    price: 50.0,
    imageUrl: '/static/images/products/stussy-8-ball-tee.svg',
    description:
      'Stussy 8 Ball tee in sand with the heritage eight-ball graphic. A 1980s Laguna-adjacent classic on a heavyweight cotton blank.',
    playEnabled: false,
    createdDaysAgo: 56,
  },

  // ---------------------------------------------------------------- shoes
  {
    productType: 'shoe',
    brand: 'Nike',
    model: 'CW2288-111',
    size: '10',
    quantity: 8,
    price: 115.0,
    imageUrl: '/static/images/products/nike-air-force-1-07.svg',
    description:
      'Air Force 1 ’07 in triple white leather with the Air-cushioned cupsole. Crisp, comfortable and goes with absolutely everything.',
    playEnabled: false,
    createdDaysAgo: 33,
  },
  {
    productType: 'shoe',
    brand: 'Adidas',
    model: 'B75806',
    size: '9.5',
    quantity: 3,
    price: 100.0,
    imageUrl: '/static/images/products/adidas-samba-og.svg',
    description:
      'Samba OG in white leather with black 3-Stripes, a grey suede T-toe and a gum sole. The low-profile terrace classic everyone is wearing again.',
    playEnabled: true,
    createdDaysAgo: 8,
  },
  {
    productType: 'shoe',
    brand: 'Vans',
    model: 'VN000D3HY28',
    size: '8',
    quantity: 15,
    price: 70.0,
    imageUrl: '/static/images/products/vans-old-skool.svg',
    description:
      'Old Skool in black suede and canvas with the white Sidestripe. A durable skate shoe with a waffle sole that grips a board or a boardwalk.',
    playEnabled: true,
    createdDaysAgo: 77,
  },
  {
    productType: 'shoe',
    brand: 'Allbirds',
    model: 'TR3MNTW-NAT',
    size: '11',
    quantity: 0,
    price: 98.0,
    imageUrl: '/static/images/products/allbirds-tree-runner.svg',
    description:
      'Tree Runner with a breathable eucalyptus-fibre knit upper and a sugarcane-based foam sole. Light enough to forget you are wearing them.',
    playEnabled: false,
    createdDaysAgo: 115,
  },
  {
    productType: 'shoe',
    brand: 'Hoka',
    model: '1127895-BBLC',
    size: '10.5',
    quantity: 5,
    price: 145.0,
    imageUrl: '/static/images/products/hoka-clifton-9.svg',
    description:
      'Clifton 9 with a thick, rockered foam midsole for soft, smooth miles. A favourite for daily runs along the coast trail.',
    playEnabled: false,
    createdDaysAgo: 22,
  },
  {
    productType: 'shoe',
    brand: 'On',
    model: '59.98904',
    size: '9',
    quantity: 6,
    price: 150.0,
    imageUrl: '/static/images/products/on-cloud-5.svg',
    description:
      'Cloud 5 with CloudTec pods and a slip-on speed-lacing system. Swiss-engineered cushioning for errands, travel and everything between.',
    playEnabled: false,
    createdDaysAgo: 44,
  },
  {
    productType: 'shoe',
    brand: 'New Balance',
    model: 'M990GL6',
    size: '12',
    quantity: 2,
    price: 200.0,
    imageUrl: '/static/images/products/new-balance-990v6.svg',
    description:
      'Made in USA 990v6 in classic grey suede and mesh with FuelCell cushioning. The dad-shoe icon, refined for all-day comfort.',
    playEnabled: false,
    bidEnabled: true,
    createdDaysAgo: 15,
  },

  // ---------------------------------------------------------------- books
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
