import { getCountryCallingCode } from 'libphonenumber-js/max';
import { BillerEntry, Catalog, OperatorEntry } from '../../application/ports/catalog.port';
import { Corridor, CORRIDORS } from '../../domain/corridor/corridor';
import { CatalogSources, readCatalogData } from './catalog-data';
import billersJson from './data/billers.json';
import numberPlansJson from './data/number-plans.json';
import operatorsJson from './data/operators.json';
import { NumberPlan } from './number-plan';

const BUNDLED: CatalogSources = { operators: operatorsJson, billers: billersJson, numberPlans: numberPlansJson };

export class JsonCatalog implements Catalog {
  private readonly operatorsById = new Map<number, OperatorEntry>();
  private readonly billersById = new Map<number, BillerEntry>();
  private readonly plans = new Map<Corridor, NumberPlan>();

  constructor(sources: CatalogSources = BUNDLED) {
    const data = readCatalogData(sources);
    for (const operator of data.operators) this.operatorsById.set(operator.id, operator);
    for (const biller of data.billers) this.billersById.set(biller.id, biller);
    for (const { corridor, prefix, operatorId } of data.prefixes) {
      const plan = this.plans.get(corridor) ?? new NumberPlan();
      plan.add(prefix, operatorId);
      this.plans.set(corridor, plan);
    }
  }

  operators(corridor: Corridor): OperatorEntry[] {
    return [...this.operatorsById.values()].filter((entry) => entry.corridor === corridor && entry.active);
  }

  /** Also returns an inactive operator, so past orders can still be described. */
  operator(id: number): OperatorEntry | null {
    return this.operatorsById.get(id) ?? null;
  }

  billers(corridor: Corridor): BillerEntry[] {
    return [...this.billersById.values()].filter((entry) => entry.corridor === corridor && entry.active);
  }

  /** Also returns an inactive biller, so past orders can still be described. */
  biller(id: number): BillerEntry | null {
    return this.billersById.get(id) ?? null;
  }

  /** Null when the owner of the prefix is inactive: a number is never attributed to the next shorter prefix. */
  detectOperator(corridor: Corridor, e164Phone: string): OperatorEntry | null {
    const callingCode = `+${getCountryCallingCode(CORRIDORS[corridor].country)}`;
    if (!e164Phone.startsWith(callingCode)) return null;
    const nationalNumber = e164Phone.slice(callingCode.length);
    if (!/^\d+$/.test(nationalNumber)) return null;
    const ownerId = this.plans.get(corridor)?.ownerOf(nationalNumber) ?? null;
    const owner = ownerId === null ? undefined : this.operatorsById.get(ownerId);
    return owner?.active ? owner : null;
  }
}
