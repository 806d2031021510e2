import { db } from "~/db/client.server";
import { Accounts } from "~/modules/ledger/accounts.server";
import { postEntry } from "~/modules/ledger/journal.server";

/** Gives a member earnings to request (a balanced test entry from the digital receipts), in micro-units. */
export async function creditEarnings(userId: number, amountMicros: bigint): Promise<void> {
  await db().transaction((tx) =>
    postEntry(tx, {
      kind: "test_income",
      memo: "test income",
      postings: [
        { account: Accounts.receipts("digital"), amountMicros: -amountMicros, source: "digital" },
        { account: Accounts.earnings(userId), amountMicros, source: "digital" },
      ],
    }),
  );
}
