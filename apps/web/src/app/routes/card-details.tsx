import { CardDetails } from '../../features/cards/routes/card-details.tsx';
import { CardSpending } from '../../features/spending/components/card-spending.tsx';

/** /card-details: the card (features/cards) with its controls and transactions (features/spending) below it. */
export default function CardDetailsScreen() {
  return <CardDetails spending={CardSpending} />;
}
