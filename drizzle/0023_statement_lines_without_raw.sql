-- A statement line as sent stays in its stored file (sales_imports.file_path, by line_no): the column repeated
-- every header name on every line and made an import write about three times the bytes (decision 017).
ALTER TABLE "statement_lines" DROP COLUMN "raw";