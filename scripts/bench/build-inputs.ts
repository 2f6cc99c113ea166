/**
 * Inputs for the build benchmark (build-run.ts), written into a folder:
 * - raw ownership XML: the real Form 3/4/5 XMLs of sec-data (`ownership/datamule_paypal/`, each
 *   with its `.header.json`) copied again and again under new accession numbers;
 * - a synthetic Insider Transactions Data Set quarter (SUBMISSION, REPORTINGOWNER,
 *   NONDERIV_TRANS) and a synthetic Form 13F Data Set quarter (SUBMISSION, COVERPAGE,
 *   SUMMARYPAGE, INFOTABLE) at the sizes SEC's quarters have, with SEC's columns and formats.
 * Pseudo-random but seeded: the same call writes the same files.
 */
import { createWriteStream, readFileSync, readdirSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { crc32, deflateRawSync } from 'node:zlib';

/** A small seeded generator (mulberry32). */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The accession number of the i-th generated filing (a filer-agent prefix no real filing uses). */
export const syntheticAccession = (i: number, prefix = '0001999999'): string => `${prefix}-${String(10 + Math.floor(i / 1e6)).padStart(2, '0')}-${String(i % 1e6).padStart(6, '0')}`;

/**
 * Writes `count` raw ownership filings (XML + `.header.json`) from `first` on, 1,000 per folder.
 *
 * @param secData - the sec-data folder.
 * @param out - the folder to write into.
 */
export async function writeRawOwnership(secData: string, out: string, count: number, first = 0, prefix = '0001999999'): Promise<void> {
  const dir = join(secData, 'ownership/datamule_paypal');
  const stems = readdirSync(dir).filter((f) => f.endsWith('.header.json')).map((f) => f.slice(0, -'.header.json'.length)).sort();
  const xml = stems.map((s) => readFileSync(join(dir, `${s}.xml`)));
  const header = stems.map((s) => readFileSync(join(dir, `${s}.header.json`), 'utf8'));
  for (let i = first; i < first + count; i++) {
    const j = i % stems.length;
    const folder = join(out, `${prefix}-${String(Math.floor(i / 1000)).padStart(4, '0')}`);
    if (i === first || i % 1000 === 0) await mkdir(folder, { recursive: true });
    const accession = syntheticAccession(i, prefix);
    await writeFile(join(folder, `${accession}.xml`), xml[j]!);
    await writeFile(join(folder, `${accession}.header.json`), header[j]!.split(stems[j]!).join(accession));
  }
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const dmy = (day: number): string => {
  const d = new Date(Date.UTC(2024, 6, 1) + day * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}-${MONTHS[d.getUTCMonth()]}-${d.getUTCFullYear()}`;
};

/** Writes lines to a file through a stream, waiting when its buffer is full. */
async function writeLines(path: string, lines: (emit: (line: string) => Promise<void>) => Promise<void>): Promise<void> {
  const stream = createWriteStream(path);
  await lines(async (line) => {
    if (!stream.write(`${line}\n`)) await once(stream, 'drain');
  });
  stream.end();
  await once(stream, 'finish');
}

/**
 * Writes a synthetic Insider Transactions Data Set quarter (2024Q3 dates): `filings` filings of
 * 5,000 issuers, 1.1 reporting owners each, and `transactions` Table I rows with codes in
 * about the proportions of real quarters (S, A, M, F, P, G, …).
 */
export async function writeInsiderQuarter(out: string, filings: number, transactions: number, seed = 1): Promise<void> {
  await mkdir(out, { recursive: true });
  const rand = random(seed);
  const codes = ['S', 'S', 'S', 'S', 'S', 'S', 'S', 'A', 'A', 'A', 'A', 'M', 'M', 'M', 'F', 'F', 'F', 'P', 'G', 'J'];
  const filed: number[] = [];
  await writeLines(join(out, 'SUBMISSION.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tFILING_DATE\tPERIOD_OF_REPORT\tDATE_OF_ORIG_SUB\tNO_SECURITIES_OWNED\tNOT_SUBJECT_SEC16\tFORM3_HOLDINGS_REPORTED\tFORM4_TRANS_REPORTED\tDOCUMENT_TYPE\tISSUERCIK\tISSUERNAME\tISSUERTRADINGSYMBOL\tREMARKS');
    for (let i = 0; i < filings; i++) {
      const day = Math.floor(rand() * 90);
      filed.push(day);
      const issuer = Math.floor(rand() * 5000);
      await emit([syntheticAccession(i, '0001888888'), dmy(day + 2), dmy(day), '', '', '0', '', '', rand() < 0.03 ? '4/A' : '4',
        String(1_000_000 + issuer).padStart(10, '0'), `Issuer ${issuer} Inc.`, `I${issuer.toString(36).toUpperCase()}`, i % 50 === 0 ? '"Remarks with ""quotes"""' : ''].join('\t'));
    }
  });
  await writeLines(join(out, 'REPORTINGOWNER.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tRPTOWNERCIK\tRPTOWNERNAME\tRPTOWNER_RELATIONSHIP\tRPTOWNER_TITLE\tRPTOWNER_TXT\tRPTOWNER_STREET1\tRPTOWNER_STREET2\tRPTOWNER_CITY\tRPTOWNER_STATE\tRPTOWNER_ZIPCODE\tRPTOWNER_STATE_DESC\tFILE_NUMBER');
    for (let i = 0; i < filings; i++) {
      for (let k = 0; k < (rand() < 0.1 ? 2 : 1); k++) {
        const owner = Math.floor(rand() * 30_000);
        const officer = rand() < 0.5;
        await emit([syntheticAccession(i, '0001888888'), String(1_500_000 + owner).padStart(10, '0'), `Owner ${owner}`, officer ? 'Officer' : 'Director',
          officer ? 'Chief Executive Officer' : '', '', '1 Main St', '', 'City', 'CA', '94000', '', ''].join('\t'));
      }
    }
  });
  await writeLines(join(out, 'NONDERIV_TRANS.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tNONDERIV_TRANS_SK\tSECURITY_TITLE\tSECURITY_TITLE_FN\tTRANS_DATE\tTRANS_DATE_FN\tDEEMED_EXECUTION_DATE\tDEEMED_EXECUTION_DATE_FN\tTRANS_FORM_TYPE\tTRANS_CODE\tEQUITY_SWAP_INVOLVED\tEQUITY_SWAP_INVOLVED_FN\tTRANS_TIMELINESS\tTRANS_TIMELINESS_FN\tTRANS_SHARES\tTRANS_SHARES_FN\tTRANS_PRICEPERSHARE\tTRANS_PRICEPERSHARE_FN\tTRANS_ACQUIRED_DISP_CD\tTRANS_ACQUIRED_DISP_CD_FN\tSHRS_OWND_FOLWNG_TRANS\tSHRS_OWND_FOLWNG_TRANS_FN\tVALU_OWND_FOLWNG_TRANS\tVALU_OWND_FOLWNG_TRANS_FN\tDIRECT_INDIRECT_OWNERSHIP\tDIRECT_INDIRECT_OWNERSHIP_FN\tNATURE_OF_OWNERSHIP\tNATURE_OF_OWNERSHIP_FN');
    for (let t = 0; t < transactions; t++) {
      const i = Math.floor((t / transactions) * filings);
      const code = codes[Math.floor(rand() * codes.length)]!;
      const price = code === 'A' || code === 'G' ? '0' : (1 + rand() * 400).toFixed(4);
      await emit([syntheticAccession(i, '0001888888'), String(5_000_000 + t), 'Common Stock', '', dmy(filed[i]!), '', '', '', '4', code, '0', '', '', '',
        String(1 + Math.floor(rand() * 50_000)), '', price, '', code === 'P' || code === 'A' || code === 'M' ? 'A' : 'D', '', String(Math.floor(rand() * 1e6)), '', '', '', 'D', '', '', ''].join('\t'));
    }
  });
}

/**
 * Writes a synthetic Form 13F Data Set quarter (period 2024-06-30, filed in July and August):
 * `filers` 13F-HRs with `entries` information-table rows in all, table sizes skewed as real
 * ones are (most filers hold tens of positions, a few thousands), over 20,000 securities.
 */
export async function writeThirteenFQuarter(out: string, filers: number, entries: number, seed = 2): Promise<void> {
  await mkdir(out, { recursive: true });
  const rand = random(seed);
  const weights = Array.from({ length: filers }, () => 1 / (0.02 + rand()));
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.round((w / total) * entries)));
  await writeLines(join(out, 'SUBMISSION.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tFILING_DATE\tSUBMISSIONTYPE\tCIK\tPERIODOFREPORT');
    for (let f = 0; f < filers; f++) await emit([syntheticAccession(f, '0001777777'), dmy(14 + (f % 40)), '13F-HR', String(2_000_000 + f).padStart(10, '0'), '30-JUN-2024'].join('\t'));
  });
  await writeLines(join(out, 'COVERPAGE.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tREPORTCALENDARORQUARTER\tISAMENDMENT\tAMENDMENTNO\tAMENDMENTTYPE\tCONFDENIEDEXPIRED\tDATEDENIEDEXPIRED\tDATEREPORTED\tREASONFORNONCONFIDENTIALITY\tFILINGMANAGER_NAME\tFILINGMANAGER_STREET1\tFILINGMANAGER_STREET2\tFILINGMANAGER_CITY\tFILINGMANAGER_STATEORCOUNTRY\tFILINGMANAGER_ZIPCODE\tREPORTTYPE\tFORM13FFILENUMBER\tCRDNUMBER\tSECFILENUMBER\tPROVIDEINFOFORINSTRUCTION5\tADDITIONALINFORMATION');
    for (let f = 0; f < filers; f++) await emit([syntheticAccession(f, '0001777777'), '30-JUN-2024', 'N', '', '', '', '', '', '', `Adviser ${f} LLC`, '1 Main St', '', 'New York', 'NY', '10001', '13F HOLDINGS REPORT', `028-${f}`, '', '', 'N', ''].join('\t'));
  });
  await writeLines(join(out, 'SUMMARYPAGE.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tOTHERINCLUDEDMANAGERSCOUNT\tTABLEENTRYTOTAL\tTABLEVALUETOTAL\tISCONFIDENTIALOMITTED');
    for (let f = 0; f < filers; f++) await emit([syntheticAccession(f, '0001777777'), '0', String(sizes[f]), '0', 'N'].join('\t'));
  });
  let sk = 0;
  await writeLines(join(out, 'INFOTABLE.tsv'), async (emit) => {
    await emit('ACCESSION_NUMBER\tINFOTABLE_SK\tNAMEOFISSUER\tTITLEOFCLASS\tCUSIP\tFIGI\tVALUE\tSSHPRNAMT\tSSHPRNAMTTYPE\tPUTCALL\tINVESTMENTDISCRETION\tOTHERMANAGER\tVOTING_AUTH_SOLE\tVOTING_AUTH_SHARED\tVOTING_AUTH_NONE');
    for (let f = 0; f < filers; f++) {
      const accession = syntheticAccession(f, '0001777777');
      for (let e = 0; e < sizes[f]!; e++) {
        const security = Math.floor(rand() * rand() * 20_000);
        const shares = 100 + Math.floor(rand() * 1e6);
        const price = 5 + security % 300;
        const putCall = rand() < 0.02 ? (rand() < 0.5 ? 'Put' : 'Call') : '';
        await emit([accession, String(++sk), `SECURITY ${security} INC`, 'COM', `S${String(security).padStart(7, '0')}0`, '', String(shares * price), String(shares), 'SH', putCall, 'SOLE', '', String(shares), '0', '0'].join('\t'));
      }
    }
  });
}

/**
 * Zips the files of a folder (deflate, APPNOTE.TXT 4.3) into one archive, in memory: for the
 * benchmark's smaller data sets, to measure the zipped path as SEC ships it.
 */
export async function zipFolder(folder: string, names: readonly string[], archive: string): Promise<void> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const data = readFileSync(join(folder, name));
    const packed = deflateRawSync(data);
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14); local.writeUInt32LE(packed.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0); entry.writeUInt16LE(20, 4); entry.writeUInt16LE(20, 6); entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16); entry.writeUInt32LE(packed.length, 20); entry.writeUInt32LE(data.length, 24); entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, fileName, packed);
    central.push(entry, fileName);
    offset += local.length + fileName.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(names.length, 8); end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12); end.writeUInt32LE(offset, 16);
  await writeFile(archive, Buffer.concat([...locals, directory, end]));
}
