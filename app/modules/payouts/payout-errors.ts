/** A payout action refused: the status to answer, the message for the member, and the form field it is about. */
export class PayoutError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "PayoutError";
  }
}
