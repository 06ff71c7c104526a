import type { Rule } from '@portal/contract/rules';
import type { FormRule } from 'antd';
import { formRule } from '../../../lib/form-rules.ts';

/** A contract rule read on the value as it will be sent: without the spaces typed around it. */
export const trimmedRule = (rule: Rule): FormRule => formRule((value) => rule(value.trim()));
