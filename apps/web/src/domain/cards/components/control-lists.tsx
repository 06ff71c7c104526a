import { countryName, countryNames, ISO_COUNTRY_CODES, MCC_CATEGORIES, mccCategories } from '@portal/contract/card-spending';
import { Checkbox, Form, Select } from 'antd';
import { useMemo } from 'react';
import { cardSpendingText } from '../../../locales/zh-CN/card-spending.ts';
import styles from './control-lists.module.css';

const text = cardSpendingText.controls;
const categoryOptions = MCC_CATEGORIES.map((category) => ({ value: category, label: mccCategories[category].label }));

/**
 * The two lists of a card's controls as form fields (`blocked_categories`, `allowed_countries`), the
 * same on one card's controls and in a bulk action setting them on many: the categories to refuse, and
 * the countries allowed (none: every one). `held` are codes a card holds already, kept as options.
 */
export function ControlListFields({ held = [] }: { held?: readonly string[] }) {
  const countryOptions = useMemo(() => {
    // the portal's usual countries first, then every other one of ISO 3166, then any other code the card holds
    const codes = [...new Set([...Object.keys(countryNames), ...ISO_COUNTRY_CODES, ...held])];
    // the name is shown, the code is the tooltip and may be typed to find it
    return codes.map((code) => ({ value: code, label: countryName(code), title: code }));
  }, [held]);
  return (
    <>
      <Form.Item name="blocked_categories" label={text.categories} extra={text.categoriesHint}>
        <Checkbox.Group className={styles.categories} options={categoryOptions} data-testid="control-categories" />
      </Form.Item>
      <Form.Item name="allowed_countries" label={text.countries} extra={text.countriesHint}>
        <Select
          mode="multiple"
          allowClear
          placeholder={text.allCountries}
          options={countryOptions}
          filterOption={(input, option) => Boolean(option && (option.label.includes(input.trim()) || option.value === input.trim().toUpperCase()))}
          aria-label={text.countries}
          data-testid="control-countries"
        />
      </Form.Item>
    </>
  );
}
