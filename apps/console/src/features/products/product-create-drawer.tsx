import { PlusOutlined } from '@ant-design/icons';
import { DrawerForm, type ProFormInstance, ProFormDigit, ProFormRadio, ProFormSelect, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { CARD_BRANDS } from '@portal/contract/cards';
import { productConflict, productCreateBody, productFieldLabel, type ProductCreateBody } from '@portal/contract/console-admin';
import { ConsoleAdminErrorCode, consoleAdminErrors } from '@portal/contract/console-admin-errors';
import { CURRENCIES } from '@portal/contract/enums';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button } from 'antd';
import { type ComponentProps, type RefObject, useRef } from 'react';
import { callConsole } from '../../lib/http.ts';
import { useRefusal } from '../../lib/use-refusal.ts';
import { fill } from '../../locales/zh-CN.ts';
import { adminText } from '../../locales/zh-CN-admin.ts';
import { boundOf, type ProductFormValues } from './product-fees.ts';
import { productKeys } from './product-queries.ts';
import styles from './products.module.css';

const t = adminText.products;

/** The new product's form: the fields an edit offers, and what a product keeps from its creation on. */
interface FormValues extends ProductFormValues {
  brand: ProductCreateBody['brand'];
  bin: string;
  currency: ProductCreateBody['currency'];
}

/** The form's values as the call's body: a bound left empty is none (null). */
const bodyOf = (values: FormValues): ProductCreateBody => ({
  ...values,
  name: values.name.trim(),
  bin: values.bin.trim(),
  topup_fee_min: boundOf(values.topup_fee_min),
  topup_fee_max: boundOf(values.topup_fee_max),
});

type Field = keyof typeof productCreateBody.shape;

/** A field's rule, the contract's own: the server checks the same schema and answers the same message. */
const contractRule = (field: Field) => ({
  validator: async (_: unknown, value: unknown) => {
    const given = typeof value === 'string' && (field === 'topup_fee_min' || field === 'topup_fee_max') ? boundOf(value) : value;
    const checked = productCreateBody.shape[field].safeParse(given);
    if (!checked.success) throw new Error(checked.error.issues[0]?.message ?? t.fieldBad);
  },
});

/** The rule between fields (fee bounds, first load and maximum balance) on the field it names, once both are amounts. */
const conflictRule = (form: RefObject<ProFormInstance<FormValues> | undefined>, code: number) => ({
  validator: async () => {
    const values = form.current?.getFieldsValue() as FormValues | undefined;
    if (!values) return;
    const body = bodyOf(values);
    const parsed = productCreateBody.safeParse(body);
    if (!parsed.success) return;
    if (productConflict(parsed.data) === code) throw new Error(consoleAdminErrors[code]?.message);
  },
});

/** 新建产品: a new card product of the merchant, every field with the contract's rule; an ADMIN's alone (the server decides). */
export function ProductCreateDrawer() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const form = useRef<ProFormInstance<FormValues>>(undefined);
  const { refusal, show, clear } = useRefusal();
  const amountField = (name: Field, label: string, extra?: Partial<ComponentProps<typeof ProFormText>>) => (
    <ProFormText name={name} label={label} rules={[contractRule(name)]} fieldProps={{ inputMode: 'decimal' }} {...extra} />
  );

  return (
    <DrawerForm<FormValues>
      title={t.createTitle}
      formRef={form}
      width="min(736px, 100vw)"
      initialValues={{ status: 'ON', needs_secondary: false, topup_fee_fixed: '0', decline_fee: '0', per_account_limit: 10, max_per_batch: 50 }}
      trigger={
        <Button type="primary" icon={<PlusOutlined />}>
          {t.create}
        </Button>
      }
      drawerProps={{ destroyOnHidden: true, afterOpenChange: (open) => (open ? undefined : clear()) }}
      submitter={{ searchConfig: { submitText: t.createSubmit } }}
      onFinish={async (values) => {
        clear();
        try {
          const created = await callConsole('createProduct', { body: bodyOf(values) });
          await queryClient.invalidateQueries({ queryKey: productKeys.all });
          message.success(fill(t.created, { name: created.name }));
          return true;
        } catch (error) {
          show(error, form.current);
          return false;
        }
      }}
    >
      <Alert type="info" showIcon title={t.createHint} className={styles.notice} />
      {refusal ? <Alert type="error" showIcon title={refusal} className={styles.notice} role="alert" /> : null}
      <ProFormText name="name" label={productFieldLabel.name} rules={[contractRule('name')]} fieldProps={{ maxLength: 30 }} />
      <div className={styles.grid}>
        <ProFormSelect name="brand" label={productFieldLabel.brand} options={CARD_BRANDS.map((value) => ({ value, label: value }))} rules={[contractRule('brand')]} />
        <ProFormText name="bin" label={productFieldLabel.bin} rules={[contractRule('bin')]} fieldProps={{ inputMode: 'numeric', maxLength: 8 }} extra={t.binHint} />
        <ProFormSelect name="currency" label={productFieldLabel.currency} options={CURRENCIES.map((value) => ({ value, label: value }))} rules={[contractRule('currency')]} />
        <ProFormRadio.Group
          name="status"
          label={productFieldLabel.status}
          options={[
            { value: 'ON', label: t.on },
            { value: 'OFF', label: t.off },
          ]}
        />
        {amountField('open_fee', productFieldLabel.open_fee)}
        {amountField('topup_fee_rate', productFieldLabel.topup_fee_rate, { extra: t.rateHint })}
        {amountField('topup_fee_fixed', productFieldLabel.topup_fee_fixed)}
        {amountField('decline_fee', productFieldLabel.decline_fee)}
        {amountField('topup_fee_min', productFieldLabel.topup_fee_min, { fieldProps: { inputMode: 'decimal', placeholder: t.noBound } })}
        <ProFormText
          name="topup_fee_max"
          label={productFieldLabel.topup_fee_max}
          dependencies={['topup_fee_min']}
          rules={[contractRule('topup_fee_max'), conflictRule(form, ConsoleAdminErrorCode.PRODUCT_FEE_BOUNDS)]}
          fieldProps={{ inputMode: 'decimal', placeholder: t.noBound }}
        />
        <ProFormText
          name="min_first_load"
          label={productFieldLabel.min_first_load}
          dependencies={['max_balance']}
          rules={[contractRule('min_first_load'), conflictRule(form, ConsoleAdminErrorCode.PRODUCT_FIRST_LOAD)]}
          fieldProps={{ inputMode: 'decimal' }}
        />
        {amountField('max_balance', productFieldLabel.max_balance)}
        <ProFormDigit name="per_account_limit" label={productFieldLabel.per_account_limit} min={1} fieldProps={{ precision: 0 }} rules={[contractRule('per_account_limit')]} />
        <ProFormDigit name="max_per_batch" label={productFieldLabel.max_per_batch} min={1} fieldProps={{ precision: 0 }} rules={[contractRule('max_per_batch')]} />
      </div>
      <ProFormSwitch name="needs_secondary" label={productFieldLabel.needs_secondary} />
    </DrawerForm>
  );
}
