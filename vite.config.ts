import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    // The dev server's SSR step does not read tsconfig paths.
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: { sourcemap: false },
  ssr: {
    // Native/wasm packages stay external in the server bundle.
    external: ["@electric-sql/pglite", "pg", "nodemailer", "sanitize-html"],
  },
});
