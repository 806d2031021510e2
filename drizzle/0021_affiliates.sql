-- Placeholder: this slot's tables arrive with their feature.
SELECT 1;
