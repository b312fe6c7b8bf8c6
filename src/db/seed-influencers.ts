/** One demo influencer; followers text per platform with K/M/B suffixes. */
export interface SeedInfluencer {
  name: string;
  handle: string;
  avatar: string;
  platforms: Partial<Record<'instagram' | 'tiktok' | 'youtube' | 'twitter', string>>;
  /** Percent; calibrates the simulated metrics. */
  engagementRate: number;
  category: string;
}

export const seedInfluencers: SeedInfluencer[] = [
  {
    name: 'Marisol Vega',
    handle: '@marisolsunset',
    avatar: '/static/images/influencers/marisol-vega.svg',
    platforms: { instagram: '2.4M', tiktok: '3.1M' },
    engagementRate: 4.2,
    category: 'Fashion',
  },
  {
    name: 'Kai Nakamura',
    handle: '@kaisurfsdaily',
    avatar: '/static/images/influencers/kai-nakamura.svg',
    platforms: { youtube: '870K', instagram: '1.2M', tiktok: '640K' },
    engagementRate: 6.1,
    category: 'Surf',
  },
  {
    name: 'Jordan Ellis',
    handle: '@jordanlifts',
    avatar: '/static/images/influencers/jordan-ellis.svg',
    platforms: { instagram: '5.8M', youtube: '2.2M' },
    engagementRate: 3.4,
    category: 'Fitness',
  },
  {
    name: 'Priya Raman',
    handle: '@priyareadsbythesea',
    avatar: '/static/images/influencers/priya-raman.svg',
    platforms: { tiktok: '410K', instagram: '95K' },
    engagementRate: 9.5,
    category: 'Books',
  },
  {
    name: 'Theo Laurent',
    handle: '@theowanders',
    avatar: '/static/images/influencers/theo-laurent.svg',
    platforms: { youtube: '12M', instagram: '8.4M', twitter: '1.9M', tiktok: '6.7M' },
    engagementRate: 2.1,
    category: 'Travel',
  },
  {
    name: 'Aaliyah Brooks',
    handle: '@aaliyahstyle',
    avatar: '/static/images/influencers/aaliyah-brooks.svg',
    platforms: { instagram: '480M', tiktok: '210M', youtube: '95M', twitter: '120M' },
    engagementRate: 0.8,
    category: 'Celebrity',
  },
  {
    name: 'Sam Okafor',
    handle: '@samsneaks',
    avatar: '/static/images/influencers/sam-okafor.svg',
    platforms: { youtube: '3.3M', instagram: '1.6M' },
    engagementRate: 5.2,
    category: 'Sneakers',
  },
  {
    name: 'Lena Hoffmann',
    handle: '@lenaoutdoors',
    avatar: '/static/images/influencers/lena-hoffmann.svg',
    platforms: { instagram: '52K' },
    engagementRate: 8.7,
    category: 'Outdoors',
  },
  {
    name: 'Diego Santos',
    handle: '@diegoskates',
    avatar: '/static/images/influencers/diego-santos.svg',
    platforms: { tiktok: '22M', instagram: '9.1M' },
    engagementRate: 7.3,
    category: 'Skate',
  },
  {
    name: 'Grace Whitfield',
    handle: '@gracegoesgreen',
    avatar: '/static/images/influencers/grace-whitfield.svg',
    platforms: { youtube: '640K', twitter: '180K' },
    engagementRate: 3.9,
    category: 'Sustainability',
  },
  {
    name: 'Malia Kealoha',
    handle: '@maliayoga',
    avatar: '/static/images/influencers/malia-kealoha.svg',
    platforms: { instagram: '1.1M', tiktok: '2.8M', youtube: '330K' },
    engagementRate: 5.8,
    category: 'Wellness',
  },
  {
    name: 'Ben Carter',
    handle: '@bencartercooks',
    avatar: '/static/images/influencers/ben-carter.svg',
    platforms: { youtube: '45M', tiktok: '38M', instagram: '17M' },
    engagementRate: 1.7,
    category: 'Food',
  },
  {
    name: 'Hana Kim',
    handle: '@hanashades',
    avatar: '/static/images/influencers/hana-kim.svg',
    platforms: { instagram: '760K', tiktok: '1.4M' },
    engagementRate: 6.6,
    category: 'Fashion',
  },
  {
    name: 'Omar Haddad',
    handle: '@omarhaddadtech',
    avatar: '/static/images/influencers/omar-haddad.svg',
    platforms: { twitter: '2.6M', youtube: '4.9M' },
    engagementRate: 2.7,
    category: 'Tech',
  },
  {
    name: 'Rosa Delgado',
    handle: '@rosaruns',
    avatar: '/static/images/influencers/rosa-delgado.svg',
    platforms: { instagram: '230K', youtube: '88K' },
    engagementRate: 7.9,
    category: 'Fitness',
  },
  {
    name: 'Elijah Monroe',
    handle: '@elijahmonroe',
    avatar: '/static/images/influencers/elijah-monroe.svg',
    platforms: { instagram: '150M', twitter: '64M', tiktok: '73M' },
    engagementRate: 1.2,
    category: 'Music',
  },
];
