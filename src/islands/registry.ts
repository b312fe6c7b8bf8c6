import AuthForm from './AuthForm.tsx';
import DeleteProductButton from './DeleteProductButton.tsx';
import ShareButton from './ShareButton.tsx';
import SubmitButton from './SubmitButton.tsx';
import Toaster from './Toaster.tsx';

/** Every island, by the name the server marks it with and the client build bundles it under. */
export const islands = { AuthForm, DeleteProductButton, ShareButton, SubmitButton, Toaster } as const;
export type IslandName = keyof typeof islands;
