-- The number of lines the upload's check read, kept from the moment the import is queued, so its page can show
-- how far the posting has gone (a progress bar of lines posted out of lines checked; decision 028).
ALTER TABLE "sales_imports" ADD COLUMN "expected_lines" integer;
