import { startIslands } from './lib/hydrate.ts';

// Entry of the island runtime bundle: hydrate every island on the page.
startIslands();
