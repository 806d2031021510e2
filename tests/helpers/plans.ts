import pg from "pg";

/**
 * What a piece of code really sends to PostgreSQL, and how PostgreSQL would run it with a generic plan (the plan
 * a named prepared statement settles on: app/db/client.server.ts names every parameterised text). Used by the
 * ledger's cost tests (docs/money.md "Cost does not grow with history").
 */
export interface CapturedStatement {
  text: string;
  values: unknown[];
  /** How long the database took to answer it, as the client saw it. */
  ms?: number;
}

const CONTROL = /^\s*(begin|commit|rollback|savepoint|release|set|show|deallocate)\b/i;

/**
 * Runs `fn` and records every statement any pg client of this process sends meanwhile (text and parameters),
 * BEGIN/COMMIT and SET aside. COPY and cursors (submittables) are recorded by their text.
 */
export async function captureStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: CapturedStatement[] }> {
  const statements: CapturedStatement[] = [];
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  prototype.query = function (this: unknown, config: unknown, values?: unknown, callback?: unknown) {
    const plain = config as { text?: unknown; values?: unknown[] } | string | null;
    const text = typeof plain === "string" ? plain : typeof plain?.text === "string" ? plain.text : null;
    const captured: CapturedStatement | null =
      text !== null && !CONTROL.test(text)
        ? { text, values: Array.isArray(values) ? values : typeof plain === "object" && Array.isArray(plain?.values) ? plain.values : [] }
        : null;
    if (captured) statements.push(captured);
    const started = performance.now();
    const answer = original.call(this, config, values, callback);
    if (captured && answer instanceof Promise)
      answer.then(
        () => (captured.ms = performance.now() - started),
        () => {},
      );
    return answer;
  };
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    prototype.query = original;
  }
}

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  "Plan Rows"?: number;
  "Total Cost"?: number;
  Plans?: PlanNode[];
}

export interface ExplainedStatement extends CapturedStatement {
  plan: PlanNode | null;
  /** Scans that read a whole table (a sequential scan, or an index scan without a condition) of the tables watched. */
  fullScans: string[];
}

function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  // As node-postgres sends it (dates, arrays, buffers), then quoted.
  const prepared = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils.prepareValue(value);
  if (prepared === null || prepared === undefined) return "NULL";
  return client.escapeLiteral(Buffer.isBuffer(prepared) ? `\\x${prepared.toString("hex")}` : String(prepared));
}

function walk(node: PlanNode, visit: (node: PlanNode) => void) {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/**
 * EXPLAINs each statement with `plan_cache_mode = force_generic_plan` on a connection of its own (nothing is
 * executed), and names every full scan of `tables`: a Seq Scan of one, or an index scan of one with no index
 * condition (the whole index read; a partial index is not the whole table). Statements a generic plan cannot be made for (no parameter) are explained as they are.
 */
export async function explainGeneric(url: string, statements: CapturedStatement[], tables: readonly string[]): Promise<ExplainedStatement[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: ExplainedStatement[] = [];
  try {
    await client.query("set plan_cache_mode = force_generic_plan");
    // A partial index holds only the rows of its predicate (the lines still in suspense): reading it whole is
    // not reading the table.
    const partial = new Set(
      (
        await client.query<{ name: string }>("select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid where i.indpred is not null")
      ).rows.map((r) => r.name),
    );
    for (const statement of statements) {
      if (/^\s*copy\b/i.test(statement.text)) {
        out.push({ ...statement, plan: null, fullScans: [] });
        continue;
      }
      let rows: Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>;
      if (statement.values.length === 0) {
        rows = (await client.query(`explain (format json) ${statement.text}`)).rows;
      } else {
        await client.query(`prepare cost_probe as ${statement.text}`);
        try {
          rows = (await client.query(`explain (format json) execute cost_probe(${statement.values.map((v) => literal(client, v)).join(", ")})`)).rows;
        } finally {
          await client.query("deallocate cost_probe");
        }
      }
      const plan = rows[0]!["QUERY PLAN"][0]!.Plan;
      const fullScans: string[] = [];
      walk(plan, (node) => {
        const relation = node["Relation Name"] ?? tables.find((t) => node["Index Name"]?.startsWith(`${t}_`));
        if (!relation || !tables.includes(relation)) return;
        const type = node["Node Type"];
        if (type.includes("Seq Scan")) fullScans.push(`${type} on ${relation}`);
        else if (/Index/.test(type) && !node["Index Cond"] && !partial.has(node["Index Name"] ?? ""))
          fullScans.push(`${type} on ${relation} (${node["Index Name"]}) without a condition`);
      });
      out.push({ ...statement, plan, fullScans });
    }
  } finally {
    await client.end();
  }
  return out;
}

/** One line per node of a plan, indented, for a failure message. */
export function planText(node: PlanNode | null, depth = 0): string {
  if (!node) return "(no plan)";
  const head = `${"  ".repeat(depth)}${node["Node Type"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}${node["Index Cond"] ? ` (${node["Index Cond"]})` : ""} rows=${node["Plan Rows"]} cost=${node["Total Cost"]}`;
  return [head, ...(node.Plans ?? []).map((child) => planText(child, depth + 1))].join("\n");
}
