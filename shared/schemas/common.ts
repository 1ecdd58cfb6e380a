import * as z from '#shared/schemas/zod.ts';

/**
 * A decimal input kept to `places` decimal places. DynamoDB stores numbers between 1e-130 and 1e126 in
 * magnitude only: a denormal such as 5e-324 (valid JSON, within any range check) failed the write with a 500.
 * Rounded, it is 0, and every stored value is one DynamoDB can hold and one the client meant.
 */
export function roundedDecimal(places: number) {
  const scale = 10 ** places;
  // `+ 0` turns -0 into 0.
  return z.pipe(
    z.number({ error: 'must be a number' }),
    z.transform((value) => Math.round(value * scale) / scale + 0),
  );
}
