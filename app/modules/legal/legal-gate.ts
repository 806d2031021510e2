/**
 * The API's answer (403) to a signed-in user who has not agreed to every required legal document
 *. The browser's fetch interceptor recognises it and opens /login, which lists them.
 */
export const LEGAL_AGREEMENT_REQUIRED = "Agree to the updated legal documents to continue.";
