import AuthForm from './AuthForm.tsx';
import BuyNowCheckout from './BuyNowCheckout.tsx';
import CartCheckout from './CartCheckout.tsx';
import DeleteProductButton from './DeleteProductButton.tsx';
import NotificationBell from './NotificationBell.tsx';
import PaymentMethodForm from './PaymentMethodForm.tsx';
import RedirectCountdown from './RedirectCountdown.tsx';
import ShareButton from './ShareButton.tsx';
import SubmitButton from './SubmitButton.tsx';
import Toaster from './Toaster.tsx';

/** Every island, by the name the server marks it with and the client build bundles it under. */
export const islands = {
  AuthForm,
  BuyNowCheckout,
  CartCheckout,
  DeleteProductButton,
  NotificationBell,
  PaymentMethodForm,
  RedirectCountdown,
  ShareButton,
  SubmitButton,
  Toaster,
} as const;
export type IslandName = keyof typeof islands;
