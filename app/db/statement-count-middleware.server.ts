import type { MiddlewareFunction } from "react-router";
import { env } from "~/env.server";
import { countQueries } from "./client.server";

/**
 * With STATEMENT_COUNT_HEADER=true (benchmarks, tests), every response carries the number of SQL
 * statements its request ran, middleware and loaders included, as `X-Statement-Count`. Off by default:
 * production answers never reveal it.
 */
export const statementCountMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  if (!env().STATEMENT_COUNT_HEADER) return next();
  const { result: response, count } = await countQueries(() => next());
  // A redirect made by `redirect()` has immutable headers; a copy takes the count.
  try {
    response.headers.set("X-Statement-Count", String(count));
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("X-Statement-Count", String(count));
    return copy;
  }
};
