import type { StatementQuery } from '@portal/contract/statements';
import { statementText } from '@portal/contract/statements';
import { useMutation } from '@tanstack/react-query';
import { download } from '../../../lib/api-client.ts';
import * as statementCalls from '../../../lib/generated/statements-calls.ts';
import { fileNameFrom, saveBlob } from '../../../lib/save-file.ts';

/**
 * GET /statements: the month's statement as the raw PDF or .xlsx, saved under the name the server gave
 * it (a refusal, such as a month not begun, still arrives as an envelope and is shown like any other).
 */
export const useDownloadStatement = () =>
  useMutation({
    mutationFn: async (query: StatementQuery) => {
      const response = await download(statementCalls.statement, { query });
      const disposition = response.headers['content-disposition'];
      const name = fileNameFrom(typeof disposition === 'string' ? disposition : null, statementText.fileName(query.month, query.currency, query.format));
      saveBlob(response.data, name);
      return name;
    },
  });
