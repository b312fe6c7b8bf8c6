import AuctionPanel from './AuctionPanel.tsx';
import AuctionRetry from './AuctionRetry.tsx';
import AuthForm from './AuthForm.tsx';
import BusinessApplicationForm from './BusinessApplicationForm.tsx';
import BuyMysteryBox from './BuyMysteryBox.tsx';
import BuyNowCheckout from './BuyNowCheckout.tsx';
import CartCheckout from './CartCheckout.tsx';
import CompetitionPanel from './CompetitionPanel.tsx';
import DeleteProductButton from './DeleteProductButton.tsx';
import GameAlerts from './GameAlerts.tsx';
import GameCountdown from './GameCountdown.tsx';
import LiveRegion from './LiveRegion.tsx';
import NotificationBell from './NotificationBell.tsx';
import PaymentMethodForm from './PaymentMethodForm.tsx';
import PlayGame from './PlayGame.tsx';
import PrintButton from './PrintButton.tsx';
import PrizeActions from './PrizeActions.tsx';
import RedirectCountdown from './RedirectCountdown.tsx';
import ShareButton from './ShareButton.tsx';
import SizePicker from './SizePicker.tsx';
import SubmitButton from './SubmitButton.tsx';
import TeamBuy from './TeamBuy.tsx';
import TeamJoin from './TeamJoin.tsx';
import Toaster from './Toaster.tsx';
import WinMoment from './WinMoment.tsx';

/** Every island, by the name the server marks it with and the client build bundles it under. */
export const islands = {
  AuctionPanel,
  AuctionRetry,
  AuthForm,
  BusinessApplicationForm,
  BuyMysteryBox,
  BuyNowCheckout,
  CartCheckout,
  CompetitionPanel,
  DeleteProductButton,
  GameAlerts,
  GameCountdown,
  LiveRegion,
  NotificationBell,
  PaymentMethodForm,
  PlayGame,
  PrintButton,
  PrizeActions,
  RedirectCountdown,
  ShareButton,
  SizePicker,
  SubmitButton,
  TeamBuy,
  TeamJoin,
  Toaster,
  WinMoment,
} as const;
export type IslandName = keyof typeof islands;
