/** What production requires to start; the values only have to be present (nothing is sent from tests). */
export const productionEnv = {
  NODE_ENV: 'production',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  SMS_PROVIDER: 'aliyun',
  ALIYUN_SMS_ACCESS_KEY_ID: 'test-key-id',
  ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret',
  ALIYUN_SMS_SIGN_NAME: '测试',
  ALIYUN_SMS_TEMPLATE_REGISTER: 'SMS_1',
  ALIYUN_SMS_TEMPLATE_ACCESS: 'SMS_2',
  ALIYUN_SMS_TEMPLATE_RESET_PASSWORD: 'SMS_3',
  ALIYUN_SMS_TEMPLATE_INVITATION: 'SMS_4',
  ALIYUN_SMS_ENDPOINT: 'http://127.0.0.1:1/',
  CARD_DATA_KEY: 'dGVzdC1vbmx5LWNhcmQtZGF0YS1rZXktMzItYnl0ZXM=',
  ISSUER_WEBHOOK_SECRET: 'test-only-issuer-webhook-secret-of-32-chars',
  ISSUER_URL: 'https://issuer.example',
  CODE_HASH_KEY: 'test-only-code-hash-key-of-32-characters',
} as const;
