import { apiHandler, ok } from '#shared/http/handler.ts';
import { REGISTRATION_NOT_FOUND, lookUpRegistration } from '#shared/domain/identity/app-users.ts';
import { registrationQuery } from '#shared/schemas/identity-requests.ts';

/** GET /v15/registration?api_key=&email= (iOS, Android): is this email registered, and through which app? */
export const handler = apiHandler(
  'registration-show',
  { query: registrationQuery, notFound: REGISTRATION_NOT_FOUND, summary: 'Look up whether an email is registered' },
  async (request) => ok(await lookUpRegistration({ apiKey: request.query.api_key, email: request.query.email, client: request.sourceIp })),
);
