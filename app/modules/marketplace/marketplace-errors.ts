/**
 * A marketplace action refused: the status to answer (404 for a record the actor may not see, exactly as for
 * a missing one; 409 for a record in the wrong state; 400 for bad input), the message, and the form field.
 */
export class MarketplaceError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "MarketplaceError";
  }
}

export const NO_WORK_REQUEST = "This work request does not exist.";
export const NO_ESTIMATE = "This estimate does not exist.";
export const NO_PROJECT = "This project does not exist.";
