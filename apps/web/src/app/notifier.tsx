import { themeConfig } from '../lib/theme.ts';
import { useMerchantStore } from '../stores/merchant.ts';

type MessageApi = typeof import('antd')['message'];

let messageApi: Promise<MessageApi> | null = null;

/**
 * antd's message is loaded the first time something must be said, so pages that never show a
 * message never download it. Messages follow the merchant's theme and the zh_CN locale.
 */
function loadMessage(): Promise<MessageApi> {
  messageApi ??= Promise.all([import('antd/es/message'), import('antd/es/config-provider'), import('antd/locale/zh_CN')]).then(
    ([{ default: message }, { default: ConfigProvider }, { default: zhCN }]) => {
      ConfigProvider.config({
        holderRender: (children) => (
          <ConfigProvider locale={zhCN} theme={themeConfig(useMerchantStore.getState().merchant?.color)}>
            {children}
          </ConfigProvider>
        ),
      });
      message.config({ maxCount: 3, top: 24 });
      return message;
    },
  );
  return messageApi;
}

/** Shows an error message; the HTTP module calls it for every failure it reports. */
export function showError(text: string) {
  void loadMessage().then((message) => message.error(text));
}

/** Shows a success message (screens confirm a finished action through notifySuccess). */
export function showSuccess(text: string) {
  void loadMessage().then((message) => message.success(text));
}
