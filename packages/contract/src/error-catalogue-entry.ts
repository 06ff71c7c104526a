/** One code of the catalogue: its HTTP status, its 中文 message and what it means. */
export interface CatalogueEntry {
  status: number;
  message: string;
  /** other wordings of the same refusal under the same code, by name, for when more can be said */
  variants?: Record<string, string>;
  meaning: string;
}
