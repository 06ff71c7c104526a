import { useBatchOpening } from '../../features/batches/lib/use-batch-opening.ts';
import { CreateCard } from '../../features/cards/routes/create-card.tsx';

/** /create-card: opening one card (features/cards) or, with a quantity above one, a batch (features/batches). */
export default function CreateCardScreen() {
  return <CreateCard useBatchOpening={useBatchOpening} />;
}
