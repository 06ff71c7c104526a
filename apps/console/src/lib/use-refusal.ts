import type { FormInstance } from 'antd';
import { useState } from 'react';
import { text } from '../locales/zh-CN.ts';
import { ConsoleError } from './http.ts';

/** Puts a refusal on the fields it names, or answers it as the form's own message. */
export function useRefusal() {
  const [refusal, setRefusal] = useState<string | null>(null);
  const show = (error: unknown, form?: FormInstance) => {
    if (error instanceof ConsoleError && error.fields.length > 0 && form) {
      form.setFields(error.fields);
      setRefusal(null);
      return;
    }
    setRefusal(error instanceof Error ? error.message : text.common.unexpected);
  };
  return { refusal, show, clear: () => setRefusal(null) };
}

