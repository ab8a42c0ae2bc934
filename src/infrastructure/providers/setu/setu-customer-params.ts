import { SetuBiller } from './setu-records';

export interface BillerLabels {
  consumerNumber: string;
  params: Record<string, string>;
}

const normalized = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The fetch's `customerParams` under the names Setu's biller entry declares: our extra parameters by name or label, the
 * consumer number under the first required one left. Without the entry, our catalog's labels (BBPS's names) are used.
 */
export function customerParamsFor(
  biller: SetuBiller | null,
  labels: BillerLabels,
  consumerNumber: string,
  params: Record<string, string>,
): { name: string; value: string }[] {
  const ours = Object.entries(params).map(([name, value]) => ({ name, label: labels.params[name] ?? name, value }));
  if (!biller) return [{ name: labels.consumerNumber, value: consumerNumber }, ...ours.map(asParam)];
  const result: { name: string; value: string }[] = [];
  let consumerPlaced = false;
  for (const declared of biller.customerParams) {
    const wanted = normalized(declared.paramName);
    const index = ours.findIndex((param) => normalized(param.label) === wanted || normalized(param.name) === wanted);
    if (index >= 0) {
      result.push({ name: declared.paramName, value: ours[index].value });
      ours.splice(index, 1);
    } else if (!consumerPlaced && !declared.optional) {
      result.push({ name: declared.paramName, value: consumerNumber });
      consumerPlaced = true;
    }
  }
  if (!consumerPlaced) result.unshift({ name: labels.consumerNumber, value: consumerNumber });
  return [...result, ...ours.map(asParam)];
}

const asParam = ({ label, value }: { label: string; value: string }) => ({ name: label, value });
