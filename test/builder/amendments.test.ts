/**
 * A 4/A replaces the original when it reports any Table I transaction, of any code (docs/api.md
 * §6): what the form filed decides, not the codes the insider rows count. From XML and from a data
 * set alike.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../../src/builder/build.js';

const ISSUER = '0000001234';
const OWNER = '0000005678';

/** A Form 4 or 4/A with one Table I line of `code`, and a Table II line of `derivativeCode` where given. */
const ownershipXml = (type: string, code: string | null, derivativeCode?: string): string => `<?xml version="1.0"?>
<ownershipDocument>
  <documentType>${type}</documentType>
  <periodOfReport>2024-03-01</periodOfReport>
  <issuer><issuerCik>${ISSUER}</issuerCik><issuerName>Example Corp</issuerName><issuerTradingSymbol>EXMP</issuerTradingSymbol></issuer>
  <reportingOwner>
    <reportingOwnerId><rptOwnerCik>${OWNER}</rptOwnerCik><rptOwnerName>Doe Jane</rptOwnerName></reportingOwnerId>
    <reportingOwnerRelationship><isDirector>1</isDirector></reportingOwnerRelationship>
  </reportingOwner>
  ${code ? `<nonDerivativeTable>${line('nonDerivativeTransaction', code)}</nonDerivativeTable>` : ''}
  ${derivativeCode ? `<derivativeTable>${line('derivativeTransaction', derivativeCode)}</derivativeTable>` : ''}
</ownershipDocument>
`;

const line = (element: string, code: string): string => `
    <${element}>
      <securityTitle><value>${element === 'derivativeTransaction' ? 'Stock Option (right to buy)' : 'Common Stock'}</value></securityTitle>
      <transactionDate><value>2024-03-01</value></transactionDate>
      <transactionCoding><transactionFormType>4</transactionFormType><transactionCode>${code}</transactionCode></transactionCoding>
      <transactionAmounts><transactionShares><value>100</value></transactionShares><transactionPricePerShare><value>10</value></transactionPricePerShare>
        <transactionAcquiredDisposedCode><value>${code === 'S' || code === 'M' ? 'D' : 'A'}</value></transactionAcquiredDisposedCode></transactionAmounts>
      <ownershipNature><directOrIndirectOwnership><value>D</value></directOrIndirectOwnership></ownershipNature>
    </${element}>`;

const headerJson = (accession: string, type: string, filed: string): string => JSON.stringify({
  submission: { 'ACCESSION-NUMBER': accession, TYPE: type, PERIOD: '20240301', 'FILING-DATE': filed, ISSUER: [{ 'COMPANY-DATA': { CIK: ISSUER, 'CONFORMED-NAME': 'Example Corp' } }] },
  documents: [{ FILENAME: 'doc4.xml' }],
});

type Built = { insiders: unknown[]; transactions: { accession_no: string; table: string; code: string }[]; replaced: number };

async function buildRows(t: TestContext, files: Record<string, string>): Promise<Built> {
  const dir = await mkdtemp(join(tmpdir(), 'eqf-amend-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, 'in', name, '..'), { recursive: true });
    await writeFile(join(dir, 'in', name), text);
  }
  const result = await buildSnapshot({
    from: join(dir, 'in'), out: join(dir, 'out'), asOf: '2024-03-31', windowDays: 90, filingsDays: 90, version: 'v', publish: false, workers: 0,
    now: () => new Date('2024-04-01T00:00:00Z'), log: () => {}, progress: false,
  });
  const read = async (kind: string): Promise<any[]> => {
    const text = (await readFile(join(result.dir, `${kind}.ndjson`), 'utf8')).trim();
    return text === '' ? [] : text.split('\n').map((l) => JSON.parse(l));
  };
  return { insiders: await read('insiders'), transactions: await read('insider-transactions'), replaced: (result.build.notes as { filings_replaced_by_4a: number }).filings_replaced_by_4a };
}

test('a 4/A whose only Table I transaction is an award (A) still replaces the original sale, from XML', async (t) => {
  const { insiders, transactions, replaced } = await buildRows(t, {
    '0000000001-24-000001.xml': ownershipXml('4', 'S'), '0000000001-24-000001.header.json': headerJson('0000000001-24-000001', '4', '20240304'),
    '0000000001-24-000002.xml': ownershipXml('4/A', 'A'), '0000000001-24-000002.header.json': headerJson('0000000001-24-000002', '4/A', '20240308'),
  });
  assert.equal(replaced, 1);
  assert.deepEqual(insiders, [], 'the sale the 4/A amended away is not counted');
  assert.deepEqual(transactions.map((r) => [r.accession_no, r.code]), [['0000000001-24-000002', 'A']], 'the 4/A\'s own line is a row, the replaced sale is not');
});

test('a 4/A with Table II lines only replaces nothing: the original\'s lines and its own are rows', async (t) => {
  const { insiders, transactions, replaced } = await buildRows(t, {
    '0000000001-24-000001.xml': ownershipXml('4', 'S', 'M'), '0000000001-24-000001.header.json': headerJson('0000000001-24-000001', '4', '20240304'),
    '0000000001-24-000002.xml': ownershipXml('4/A', null, 'M'), '0000000001-24-000002.header.json': headerJson('0000000001-24-000002', '4/A', '20240308'),
  });
  assert.equal(replaced, 0);
  assert.equal(insiders.length, 1, 'the sale is counted');
  assert.deepEqual(transactions.map((r) => [r.accession_no, r.table, r.code]), [
    ['0000000001-24-000002', 'derivative', 'M'], ['0000000001-24-000001', 'non_derivative', 'S'], ['0000000001-24-000001', 'derivative', 'M'],
  ]);
});

test('without the amendment the sale is counted (the test above can fail)', async (t) => {
  const { insiders } = await buildRows(t, {
    '0000000001-24-000001.xml': ownershipXml('4', 'S'), '0000000001-24-000001.header.json': headerJson('0000000001-24-000001', '4', '20240304'),
  });
  assert.equal(insiders.length, 1);
});

test('a 4/A whose only Table I transaction is an award replaces the original sale, from an Insider Transactions Data Set', async (t) => {
  const submission = ['ACCESSION_NUMBER\tFILING_DATE\tPERIOD_OF_REPORT\tDATE_OF_ORIG_SUB\tNO_SECURITIES_OWNED\tNOT_SUBJECT_SEC16\tFORM3_HOLDINGS_REPORTED\tFORM4_TRANS_REPORTED\tDOCUMENT_TYPE\tISSUERCIK\tISSUERNAME\tISSUERTRADINGSYMBOL\tREMARKS',
    `0000000001-24-000001\t04-MAR-2024\t01-MAR-2024\t\t\t0\t\t\t4\t${ISSUER}\tExample Corp\tEXMP\t`,
    `0000000001-24-000002\t08-MAR-2024\t01-MAR-2024\t04-MAR-2024\t\t0\t\t\t4/A\t${ISSUER}\tExample Corp\tEXMP\t`].join('\n');
  const owners = ['ACCESSION_NUMBER\tRPTOWNERCIK\tRPTOWNERNAME\tRPTOWNER_RELATIONSHIP\tRPTOWNER_TITLE',
    `0000000001-24-000001\t${OWNER}\tDoe Jane\tDirector\t`, `0000000001-24-000002\t${OWNER}\tDoe Jane\tDirector\t`].join('\n');
  const trans = ['ACCESSION_NUMBER\tNONDERIV_TRANS_SK\tTRANS_DATE\tTRANS_CODE\tTRANS_SHARES\tTRANS_PRICEPERSHARE\tTRANS_ACQUIRED_DISP_CD\tDIRECT_INDIRECT_OWNERSHIP',
    '0000000001-24-000001\t1\t01-MAR-2024\tS\t100\t10\tD\tD', '0000000001-24-000002\t2\t01-MAR-2024\tA\t100\t0\tA\tD'].join('\n');
  const amended = await buildRows(t, { 'q/SUBMISSION.tsv': `${submission}\n`, 'q/REPORTINGOWNER.tsv': `${owners}\n`, 'q/NONDERIV_TRANS.tsv': `${trans}\n` });
  assert.deepEqual([amended.insiders, amended.replaced], [[], 1]);
  assert.deepEqual(amended.transactions.map((r) => [r.accession_no, r.code]), [['0000000001-24-000002', 'A']]);
});
