import type { ConsoleProduct, ProductChangeBody } from '@portal/contract/console-admin';
import { formatAmount } from '@portal/contract/money-format';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Form, Input, InputNumber, Radio, Space, Switch } from 'antd';
import { useState } from 'react';
import { callConsole } from '../../lib/http.ts';
import { useRefusal } from '../../lib/use-refusal.ts';
import { fill } from '../../locales/zh-CN.ts';
import { adminText } from '../../locales/zh-CN-admin.ts';
import { productKeys } from './product-queries.ts';
import { boundOf, type ProductFormValues, previewOf } from './product-fees.ts';
import styles from './products.module.css';

const t = adminText.products;

type FormValues = ProductFormValues;

const formValuesOf = (product: ConsoleProduct): FormValues => ({
  name: product.name,
  status: product.status,
  open_fee: product.open_fee,
  topup_fee_rate: product.topup_fee_rate,
  topup_fee_fixed: product.topup_fee_fixed,
  topup_fee_min: product.topup_fee_min ?? '',
  topup_fee_max: product.topup_fee_max ?? '',
  min_first_load: product.min_first_load,
  max_balance: product.max_balance,
  decline_fee: product.decline_fee,
  per_account_limit: product.per_account_limit,
  max_per_batch: product.max_per_batch,
  needs_secondary: product.needs_secondary,
});

/** The form's values as the call's fields: a bound left empty is none (null). */
const bodyOf = (values: FormValues): Required<ProductChangeBody> => ({
  ...values,
  name: values.name.trim(),
  topup_fee_min: boundOf(values.topup_fee_min),
  topup_fee_max: boundOf(values.topup_fee_max),
});

/** Only the fields whose value differs from the product's. */
function changesOf(product: ConsoleProduct, values: FormValues): ProductChangeBody {
  const body = bodyOf(values);
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if ((product as Record<string, unknown>)[key] !== value) changes[key] = value;
  return changes as ProductChangeBody;
}

/** One product: its fields (editable by an ADMIN) and what a customer pays and gets under them. */
export function ProductDrawer({ product, mayEdit, onClose }: { product: ConsoleProduct; mayEdit: boolean; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { refusal, show, clear } = useRefusal();
  const [amount, setAmount] = useState('100');
  const watched = Form.useWatch([], form) as FormValues | undefined;
  const preview = previewOf(product, watched ? bodyOf({ ...formValuesOf(product), ...watched }) : {}, amount);
  const save = useMutation({
    mutationFn: (body: ProductChangeBody) => callConsole('changeProduct', { params: { id: product.id }, body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: productKeys.all });
      message.success(t.saved);
      onClose();
    },
    onError: (error) => show(error, form),
  });
  const submit = (values: FormValues) => {
    clear();
    const changes = changesOf(product, values);
    if (Object.keys(changes).length === 0) {
      show(new Error(t.unchanged));
      return;
    }
    save.mutate(changes);
  };
  const disabled = !mayEdit;

  return (
    <Drawer
      open
      onClose={onClose}
      title={fill(mayEdit ? t.editTitle : t.viewTitle, { name: product.name })}
      size="min(736px, 100vw)"
      destroyOnHidden
      classNames={{ body: styles.drawerBody }}
      extra={
        mayEdit ? (
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()}>
            {t.save}
          </Button>
        ) : null
      }
    >
      <Alert type="info" showIcon title={t.newCardsOnly} className={styles.notice} />
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.notice} role="alert" /> : null}
      <Form<FormValues> form={form} layout="vertical" initialValues={formValuesOf(product)} onFinish={submit} disabled={disabled} className={styles.form}>
        <Form.Item name="name" label={t.name} rules={[{ required: true, message: t.name }]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="status" label={t.status}>
          <Radio.Group
            options={[
              { value: 'ON', label: t.on },
              { value: 'OFF', label: t.off },
            ]}
          />
        </Form.Item>
        <div className={styles.grid}>
          <Form.Item name="open_fee" label={`${t.openFee}（${product.currency}）`}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="topup_fee_rate" label={t.rate} extra={t.rateHint}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="topup_fee_fixed" label={t.fixed}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="topup_fee_min" label={t.min}>
            <Input inputMode="decimal" placeholder={t.noBound} />
          </Form.Item>
          <Form.Item name="topup_fee_max" label={t.max}>
            <Input inputMode="decimal" placeholder={t.noBound} />
          </Form.Item>
          <Form.Item name="decline_fee" label={t.declineFee}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="min_first_load" label={t.firstLoad}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="max_balance" label={t.maxBalance}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="per_account_limit" label={t.perAccount}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="max_per_batch" label={t.perBatch}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </div>
        <Form.Item name="needs_secondary" label={t.needsSecondary} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>

      <section className={styles.preview} aria-label={t.preview}>
        <h3>{t.preview}</h3>
        <p className={styles.hint}>{t.previewHint}</p>
        <Space.Compact className={styles.amount}>
          <Input addonBefore={t.amount} suffix={product.currency} value={amount} onChange={(event) => setAmount(event.target.value)} placeholder={t.amountPlaceholder} aria-label={t.amount} />
        </Space.Compact>
        {preview ? (
          <div className={styles.previewGrid} data-testid="fee-preview">
            <Descriptions size="small" column={1} bordered title={t.opening}>
              <Descriptions.Item label={t.openFee}>{formatAmount(preview.opening.open_fee)}</Descriptions.Item>
              <Descriptions.Item label={t.topupFee}>{formatAmount(preview.opening.topup_fee)}</Descriptions.Item>
              <Descriptions.Item label={t.customerPays}>
                {formatAmount(preview.opening.total)} {product.currency}
              </Descriptions.Item>
              <Descriptions.Item label={t.customerGets}>
                {formatAmount(preview.opening.amount)} {product.currency}
              </Descriptions.Item>
            </Descriptions>
            <Descriptions size="small" column={1} bordered title={t.recharge}>
              <Descriptions.Item label={t.topupFee}>{formatAmount(preview.recharge.fee)}</Descriptions.Item>
              <Descriptions.Item label={t.customerPays}>
                {formatAmount(preview.recharge.total)} {product.currency}
              </Descriptions.Item>
              <Descriptions.Item label={t.customerGets}>
                {formatAmount(preview.recharge.amount)} {product.currency}
              </Descriptions.Item>
            </Descriptions>
          </div>
        ) : (
          <Alert type="warning" showIcon title={t.previewBad} />
        )}
      </section>
    </Drawer>
  );
}
