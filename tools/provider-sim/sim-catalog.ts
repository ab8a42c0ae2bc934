/** The simulator's operators and billers, shaped like Reloadly's catalog answers. */
export interface SimOperator {
  id: number;
  name: string;
  country: string;
  countryName: string;
  currency: string;
  /** Local currency units per unit of the account currency. */
  fxRate: string;
  localMin: string;
  localMax: string;
}

export interface SimBiller {
  id: number;
  name: string;
  country: string;
  currency: string;
  type: 'ELECTRICITY_BILL_PAYMENT' | 'WATER_BILL_PAYMENT' | 'TV_BILL_PAYMENT' | 'INTERNET_BILL_PAYMENT';
  serviceType: 'PREPAID' | 'POSTPAID';
}

const india = {
  country: 'IN',
  countryName: 'India',
  currency: 'INR',
  fxRate: '83.25',
  localMin: '10.00',
  localMax: '5000.00',
};
const bangladesh = {
  country: 'BD',
  countryName: 'Bangladesh',
  currency: 'BDT',
  fxRate: '119.5',
  localMin: '10.00',
  localMax: '1000.00',
};
const singapore = {
  country: 'SG',
  countryName: 'Singapore',
  currency: 'SGD',
  fxRate: '1.34',
  localMin: '5.00',
  localMax: '100.00',
};

export const SIM_OPERATORS: readonly SimOperator[] = [
  { id: 1201, name: 'Airtel India', ...india },
  { id: 1202, name: 'Jio India', ...india },
  { id: 1203, name: 'Vi India', ...india },
  { id: 1204, name: 'BSNL India', ...india },
  { id: 1401, name: 'Grameenphone Bangladesh', ...bangladesh },
  { id: 1402, name: 'Robi Axiata Bangladesh', ...bangladesh },
  { id: 1403, name: 'Banglalink Bangladesh', ...bangladesh },
  { id: 1404, name: 'Teletalk Bangladesh', ...bangladesh },
  { id: 1405, name: 'Airtel Bangladesh', ...bangladesh },
  { id: 1601, name: 'Singtel Singapore', ...singapore },
  { id: 1602, name: 'StarHub Singapore', ...singapore },
  { id: 1603, name: 'M1 Singapore', ...singapore },
];

export const SIM_BILLERS: readonly SimBiller[] = [
  {
    id: 301,
    name: 'BESCOM Postpaid',
    country: 'IN',
    currency: 'INR',
    type: 'ELECTRICITY_BILL_PAYMENT',
    serviceType: 'POSTPAID',
  },
  {
    id: 302,
    name: 'Tata Power Mumbai Postpaid',
    country: 'IN',
    currency: 'INR',
    type: 'ELECTRICITY_BILL_PAYMENT',
    serviceType: 'POSTPAID',
  },
  { id: 303, name: 'Tata Play', country: 'IN', currency: 'INR', type: 'TV_BILL_PAYMENT', serviceType: 'PREPAID' },
  {
    id: 401,
    name: 'DESCO Prepaid',
    country: 'BD',
    currency: 'BDT',
    type: 'ELECTRICITY_BILL_PAYMENT',
    serviceType: 'PREPAID',
  },
  { id: 402, name: 'Dhaka WASA', country: 'BD', currency: 'BDT', type: 'WATER_BILL_PAYMENT', serviceType: 'POSTPAID' },
  {
    id: 501,
    name: 'SP Group',
    country: 'SG',
    currency: 'SGD',
    type: 'ELECTRICITY_BILL_PAYMENT',
    serviceType: 'POSTPAID',
  },
];
