import { CheckCircleFilled } from '@ant-design/icons';
import { useId } from 'react';
import { formatAmount } from '../../../lib/money-format.ts';
import { cardCreateText } from '../../../locales/zh-CN/card-create.ts';
import type { AvailableProduct } from '../../../domain/cards/api/get-opened-available.ts';
import { topupFeeText } from '../lib/fee-text.ts';
import { BrandMark } from './brand-mark.tsx';
import styles from './product-picker.module.css';

const text = cardCreateText.product;

interface ProductPickerProps {
  products: AvailableProduct[];
  selectedId: string | null;
  /** whether the account has given the secondary data some products need */
  secondaryGiven: boolean;
  onSelect: (product: AvailableProduct) => void;
}

/**
 * The products as cards to choose from (radio buttons to assistive technology): network, BIN,
 * currency, opening fee, top-up fee, minimum first load and how many more this account may open.
 * A product that is off or whose quota is used can still be chosen: the screen then says why it
 * cannot be opened.
 */
export function ProductPicker({ products, selectedId, secondaryGiven, onSelect }: ProductPickerProps) {
  const name = useId();
  return (
    <fieldset className={styles.picker} data-testid="product-picker">
      <legend className={styles.legend}>{cardCreateText.productsLegend}</legend>
      {products.map((product) => (
        <ProductOption
          key={product.id}
          name={name}
          product={product}
          selected={product.id === selectedId}
          secondaryGiven={secondaryGiven}
          onSelect={() => onSelect(product)}
        />
      ))}
    </fieldset>
  );
}

function ProductOption({
  name,
  product,
  selected,
  secondaryGiven,
  onSelect,
}: {
  name: string;
  product: AvailableProduct;
  selected: boolean;
  secondaryGiven: boolean;
  onSelect: () => void;
}) {
  const detailsId = useId();
  const unavailable = product.status === 'OFF' ? text.off : product.remaining <= 0 ? text.quotaUsed : null;
  const className = [styles.option, selected ? styles.selected : '', unavailable ? styles.unavailable : ''].filter(Boolean).join(' ');
  return (
    <label className={className} data-testid={`product-${product.id}`}>
      <input
        className={styles.radio}
        type="radio"
        name={name}
        value={product.id}
        checked={selected}
        onChange={onSelect}
        aria-label={product.name}
        aria-describedby={detailsId}
      />
      <span className={styles.head}>
        <span className={styles.brand}>
          <BrandMark brand={product.brand} size="small" />
        </span>
        <span className={styles.name}>{product.name}</span>
        {selected ? <CheckCircleFilled className={styles.check} aria-hidden /> : <span className={styles.currencyTag}>{product.currency}</span>}
      </span>
      <span id={detailsId} className={styles.details}>
        <span className={styles.row}>
          <span className={styles.label}>{text.bin}</span>
          <span className={styles.value}>
            {product.bin} · {product.currency}
          </span>
        </span>
        <span className={styles.row}>
          <span className={styles.label}>{text.openFee}</span>
          <span className={styles.value}>
            {formatAmount(product.open_fee)} {product.currency}
          </span>
        </span>
        <span className={styles.row}>
          <span className={styles.label}>{text.topupFee}</span>
          <span className={styles.value}>{topupFeeText(product)}</span>
        </span>
        <span className={styles.row}>
          <span className={styles.label}>{text.declineFee}</span>
          <span className={styles.value} data-testid="product-decline-fee">
            {formatAmount(product.decline_fee)} {product.currency}
          </span>
        </span>
        <span className={styles.row}>
          <span className={styles.label}>{text.minFirstLoad}</span>
          <span className={styles.value}>
            {formatAmount(product.min_first_load)} {product.currency}
          </span>
        </span>
        <span className={styles.row}>
          <span className={styles.label}>{text.remaining}</span>
          <span className={styles.value} data-testid="product-remaining">
            {text.remainingCount(Math.max(0, product.remaining))}
          </span>
        </span>
      </span>
      {unavailable || (product.needs_secondary && !secondaryGiven) ? (
        <span className={styles.badges}>
          {unavailable ? <span className={styles.badgeOff}>{unavailable}</span> : null}
          {product.needs_secondary && !secondaryGiven ? <span className={styles.badgeInfo}>{text.needsSecondary}</span> : null}
        </span>
      ) : null}
    </label>
  );
}
