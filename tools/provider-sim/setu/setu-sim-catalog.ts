/** A fee of a biller's `interchangeFee` list, as Setu's List Billers gives it (flat fee in paise). */
export interface SetuSimFee {
  feeCode: string;
  feeDirection: 'C2B' | 'B2C';
  flatFee: number;
  percentFee: number;
}

/** The simulator's BBPS billers, in Setu's shape (ids as BBPS writes them, parameters by their BBPS names). */
export interface SetuSimBiller {
  id: string;
  name: string;
  categoryName: string;
  fetchApiType: 'BILL_FETCH' | 'BILL_VALIDATE' | 'BILL_DIRECT';
  exactness: 'Exact' | 'Exact and above' | 'Exact and below' | 'Any';
  customerParams: { paramName: string; regex: string; optional: boolean }[];
  /** Its payments may stay Processing for days (the simulator's pending-for time) before their final status. */
  supportsPendingStatus?: boolean;
  interchangeFee?: SetuSimFee[];
}

const param = (paramName: string, regex: string, optional = false) => ({ paramName, regex, optional });
const fee = (feeCode: string, feeDirection: 'C2B' | 'B2C', flatFee: number, percentFee = 0): SetuSimFee => ({
  feeCode,
  feeDirection,
  flatFee,
  percentFee,
});

export const SETU_SIM_BILLERS: readonly SetuSimBiller[] = [
  {
    // Charges its customers a convenience fee of 1.00 (plus GST) on top of the bill.
    id: 'ADAN00000MUM01',
    name: 'Adani Electricity Mumbai Limited',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Consumer Number', '^[0-9]{9}$')],
    interchangeFee: [fee('CCF1', 'C2B', 100)],
  },
  {
    id: 'AIRT00000NAT87',
    name: 'Airtel Postpaid',
    categoryName: 'Mobile Postpaid',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Mobile Number', '^[6-9][0-9]{9}$')],
  },
  {
    // A CCF entry of zero, and a biller fee (B2C): neither is the customer's to pay.
    id: 'BESCOM000KAR01',
    name: 'Bangalore Electricity Supply Co. Ltd (BESCOM)',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Customer ID / Account ID', '^[0-9]{10}$')],
    interchangeFee: [fee('CCF1', 'C2B', 0), fee('EBF', 'B2C', 500)],
  },
  {
    id: 'BSESRAJ00DEL01',
    name: 'BSES Rajdhani Power Limited',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('CA Number', '^[0-9]{9}$')],
  },
  {
    id: 'BSESYAM00DEL01',
    name: 'BSES Yamuna Power Limited',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('CA Number', '^[0-9]{9}$')],
  },
  {
    id: 'DJB000000DEL01',
    name: 'Delhi Jal Board',
    categoryName: 'Water',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact and above',
    customerParams: [param('K Number', '^[0-9]{10}$')],
  },
  {
    id: 'IGL000000DEL01',
    name: 'Indraprastha Gas',
    categoryName: 'Gas',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('BP Number', '^[0-9]{10}$')],
  },
  {
    // Supports pending status: a payment may stay Processing for up to 2 days.
    id: 'JVVNL0000RAJ01',
    name: 'Jaipur Vidyut Vitran Nigam Ltd',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('K Number', '^[0-9]{12}$')],
    supportsPendingStatus: true,
  },
  {
    id: 'LIC000000NAT01',
    name: 'Life Insurance Corporation of India',
    categoryName: 'Insurance',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Policy Number', '^[0-9]{9}$'), param('Email ID', '^.+@.+$', true)],
  },
  {
    id: 'MAHA00000MAH01',
    name: 'MSEDCL - Maharashtra State Electricity Distribution',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Consumer No', '^[0-9]{12}$'), param('Billing Unit (BU)', '^[0-9]{4}$')],
  },
  {
    id: 'TATAPWR00MUM01',
    name: 'Tata Power - Mumbai',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Consumer Number', '^[0-9]{12}$')],
  },
  {
    id: 'TORR00000AHM01',
    name: 'Torrent Power - Ahmedabad',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Service Number', '^[0-9A-Za-z]{1,15}$'), param('City', '^[A-Za-z]+$')],
  },
  {
    id: 'TORR00000SUR01',
    name: 'Torrent Power - Surat',
    categoryName: 'Electricity',
    fetchApiType: 'BILL_FETCH',
    exactness: 'Exact',
    customerParams: [param('Service Number', '^[0-9A-Za-z]{1,15}$'), param('City', '^[A-Za-z]+$')],
  },
];
