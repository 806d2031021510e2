import { createContext, useContext } from "react";

/** The request's CSP nonce and id, provided while rendering on the server (empty in the browser). */
export const RequestInfoContext = createContext<{ nonce: string; requestId: string }>({ nonce: "", requestId: "" });

export function useRequestInfo() {
  return useContext(RequestInfoContext);
}
