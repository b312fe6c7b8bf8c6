import AuthForm from './AuthForm.tsx';
import Toaster from './Toaster.tsx';

/** Every island, by the name the server marks it with and the client build bundles it under. */
export const islands = { AuthForm, Toaster } as const;
export type IslandName = keyof typeof islands;
