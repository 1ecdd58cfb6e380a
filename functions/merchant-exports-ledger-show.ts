import { apiHandler } from '#shared/http/handler.ts';
import { exportLedger } from '#shared/domain/reports/exports.ts';
import { exportSpec, serveExport } from '#shared/endpoints/merchant-exports.ts';

/** GET /v15/merchants/:merchant_id/exports/ledger.csv: the merchant's ledger of a range of UTC days as CSV (owner, manager). */
export const handler = apiHandler('merchant-exports-ledger-show', exportSpec('ledger'), (request) => serveExport(request, 'ledger', exportLedger));
