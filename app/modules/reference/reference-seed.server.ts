import type { Db } from "~/db/client.server";
import { readConfigValue, setConfigValue } from "~/modules/config/config.server";
import { referenceValues, type ReferenceKind } from "~/db/schema";
import { invalidateReferenceOptions } from "./reference-options.server";

/** Real-world starting lists; administrators add, edit and retire values from there. */
const GENRES = [
  "Acoustic",
  "Afrobeats",
  "Alternative",
  "Ambient",
  "Americana",
  "Blues",
  "Bluegrass",
  "Children's",
  "Christian & Gospel",
  "Classical",
  "Country",
  "Dance",
  "Disco",
  "Drum & Bass",
  "Dubstep",
  "Electronic",
  "Experimental",
  "Folk",
  "Funk",
  "Hard Rock",
  "Heavy Metal",
  "Hip-Hop/Rap",
  "House",
  "Indie",
  "Jazz",
  "J-Pop",
  "K-Pop",
  "Latin",
  "Lo-Fi",
  "Metal",
  "New Age",
  "Opera",
  "Pop",
  "Punk",
  "R&B/Soul",
  "Reggae",
  "Reggaeton",
  "Rock",
  "Singer/Songwriter",
  "Ska",
  "Soundtrack",
  "Spoken Word",
  "Techno",
  "Trance",
  "Trap",
  "World",
];

const SKILLS = [
  "Arranging",
  "Audio Editing",
  "Audio Restoration",
  "Beat Making",
  "Composing",
  "DJ",
  "Dialogue Editing",
  "Film Scoring",
  "Ghost Production",
  "Live Sound",
  "Lyric Writing",
  "Mastering",
  "Mixing",
  "Music Direction",
  "Orchestration",
  "Podcast Production",
  "Pitch Correction",
  "Recording",
  "Remixing",
  "Session Musician",
  "Sound Design",
  "Songwriter",
  "Stem Mastering",
  "Topline Writing",
  "Vocal Production",
  "Vocal Tuning",
];

const INSTRUMENTS = [
  "Accordion",
  "Acoustic Guitar",
  "Banjo",
  "Bass Guitar",
  "Bassoon",
  "Cello",
  "Clarinet",
  "Double Bass",
  "Drum Machine",
  "Drums",
  "Electric Guitar",
  "Flute",
  "French Horn",
  "Harmonica",
  "Harp",
  "Keyboards",
  "Mandolin",
  "Oboe",
  "Organ",
  "Percussion",
  "Piano",
  "Saxophone",
  "Sitar",
  "Synthesizer",
  "Trombone",
  "Trumpet",
  "Tuba",
  "Ukulele",
  "Viola",
  "Violin",
  "Vocals",
];

const LANGUAGES = [
  "Arabic",
  "Chinese (Mandarin)",
  "Dutch",
  "English",
  "French",
  "German",
  "Hindi",
  "Italian",
  "Japanese",
  "Korean",
  "Polish",
  "Portuguese",
  "Russian",
  "Spanish",
  "Swahili",
  "Swedish",
  "Turkish",
  "Yoruba",
];

/** Performing rights organisations: name, country, website and a short code. */
const PROS: Array<{ name: string; country: string; website: string; code: string }> = [
  { name: "ASCAP", country: "United States", website: "https://www.ascap.com", code: "ASCAP" },
  { name: "BMI", country: "United States", website: "https://www.bmi.com", code: "BMI" },
  { name: "SESAC", country: "United States", website: "https://www.sesac.com", code: "SESAC" },
  { name: "Global Music Rights", country: "United States", website: "https://globalmusicrights.com", code: "GMR" },
  { name: "SOCAN", country: "Canada", website: "https://www.socan.com", code: "SOCAN" },
  { name: "PRS for Music", country: "United Kingdom", website: "https://www.prsformusic.com", code: "PRS" },
  { name: "GEMA", country: "Germany", website: "https://www.gema.de", code: "GEMA" },
  { name: "SACEM", country: "France", website: "https://www.sacem.fr", code: "SACEM" },
  { name: "SIAE", country: "Italy", website: "https://www.siae.it", code: "SIAE" },
  { name: "SGAE", country: "Spain", website: "https://www.sgae.es", code: "SGAE" },
  { name: "APRA AMCOS", country: "Australia", website: "https://www.apraamcos.com.au", code: "APRA" },
  { name: "JASRAC", country: "Japan", website: "https://www.jasrac.or.jp", code: "JASRAC" },
  { name: "SUISA", country: "Switzerland", website: "https://www.suisa.ch", code: "SUISA" },
  { name: "STIM", country: "Sweden", website: "https://www.stim.se", code: "STIM" },
  { name: "TONO", country: "Norway", website: "https://www.tono.no", code: "TONO" },
  { name: "KODA", country: "Denmark", website: "https://www.koda.dk", code: "KODA" },
  { name: "Buma/Stemra", country: "Netherlands", website: "https://www.bumastemra.nl", code: "BUMA" },
  { name: "SABAM", country: "Belgium", website: "https://www.sabam.be", code: "SABAM" },
  { name: "AKM", country: "Austria", website: "https://www.akm.at", code: "AKM" },
  { name: "IMRO", country: "Ireland", website: "https://www.imro.ie", code: "IMRO" },
  { name: "SADAIC", country: "Argentina", website: "https://www.sadaic.org.ar", code: "SADAIC" },
  { name: "ECAD", country: "Brazil", website: "https://www4.ecad.org.br", code: "ECAD" },
  { name: "SACM", country: "Mexico", website: "https://www.sacm.org.mx", code: "SACM" },
  { name: "KOMCA", country: "South Korea", website: "https://www.komca.or.kr", code: "KOMCA" },
  { name: "IPRS", country: "India", website: "https://iprs.org", code: "IPRS" },
  { name: "SAMRO", country: "South Africa", website: "https://www.samro.org.za", code: "SAMRO" },
];

export const REFERENCE_SEED: Record<Exclude<ReferenceKind, "pro">, string[]> = {
  genre: GENRES,
  skill: SKILLS,
  instrument: INSTRUMENTS,
  language: LANGUAGES,
};

/** Inserts whichever seeded values are missing (matched by kind and lower-cased name); never changes one. */
export async function seedReferenceData(database: Pick<Db, "insert">): Promise<void> {
  const rows = [
    ...Object.entries(REFERENCE_SEED).flatMap(([kind, names]) => names.map((name) => ({ kind: kind as ReferenceKind, name }))),
    ...PROS.map((pro) => ({ kind: "pro" as const, ...pro })),
  ];
  await database
    .insert(referenceValues)
    .values(rows)
    // The only unique key is (kind, lower(name)): an existing value, retired or renamed in case, is kept as it is.
    .onConflictDoNothing();
  invalidateReferenceOptions();
}

/** Seeds the lists once per database (production too), so a value an administrator renames does not return. */
export async function seedReferenceDataOnFirstRun(database: Db): Promise<boolean> {
  if (await readConfigValue("reference_seeded_at")) return false;
  await seedReferenceData(database);
  await setConfigValue("reference_seeded_at", new Date().toISOString());
  return true;
}
