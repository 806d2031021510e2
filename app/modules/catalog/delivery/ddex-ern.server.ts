import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import type { ReleaseType } from "~/db/schema";

/**
 * A DDEX ERN 4.3 `NewReleaseMessage` for one release (what a store or aggregator ingests), built with
 * xmlbuilder2 so every value is escaped and the elements come out in the order the standard's schema
 * requires: MessageHeader, PartyList, ResourceList (SoundRecording per track, then the front cover Image),
 * ReleaseList (the main Release, then a TrackRelease per track) and DealList. Pure: the caller gathers
 * the facts and the files' hashes.
 */

export const ERN_NAMESPACE = "http://ddex.net/xml/ern/43";
/** Backline's DDEX Party Id as the sender (a DPID is issued by DDEX; this one is the platform's placeholder). */
export const SENDER_DPID = "PADPIDA2026112501B";
export const SENDER_NAME = "Backline";

export interface ErnFile {
  /** The path inside the package, relative to the XML. */
  uri: string;
  md5: string;
}

export interface ErnTrack {
  /** 1-based. */
  position: number;
  title: string;
  version: string;
  isrc: string;
  durationSeconds: number;
  explicit: boolean;
  languageCode: string | null;
  writers: Array<{ name: string; role: "Composer" | "ComposerLyricist" }>;
  producers: string[];
  featuredArtists: string[];
  audio: (ErnFile & { codec: "PCM" | "FLAC"; bitDepth: number; sampleRate: number; channels: number }) | null;
}

export interface ErnRelease {
  messageId: string;
  createdAt: Date;
  upc: string;
  title: string;
  type: ReleaseType;
  artistName: string;
  label: string;
  pLine: string;
  cLine: string;
  genre: string | null;
  releaseDate: string;
  originalReleaseDate: string | null;
  explicit: boolean;
  /** ISO 3166-1 alpha-2 codes, or ["WW"]. */
  territories: string[];
  tracks: ErnTrack[];
  cover: ErnFile | null;
}

const RELEASE_TYPES: Record<ReleaseType, string> = { single: "Single", ep: "EP", album: "Album" };

/** ISO 8601 duration as ERN writes it (PT3M21S). */
export function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ""}${m}M${s}S`;
}

function yearOf(line: string, fallback: string): string {
  return /\b(19|20)\d{2}\b/.exec(line)?.[0] ?? fallback.slice(0, 4);
}

function partyName(parent: XMLBuilder, name: string) {
  parent.ele("PartyName").ele("FullName").txt(name);
}

function hashSum(parent: XMLBuilder, md5: string) {
  const sum = parent.ele("HashSum");
  sum.ele("Algorithm").txt("MD5");
  sum.ele("HashSumValue").txt(md5);
}

export function buildNewReleaseMessage(release: ErnRelease): string {
  // Parties: the artist, the label, and every writer, producer and featured artist by name.
  const parties = new Map<string, string>();
  const party = (name: string) => {
    if (!parties.has(name)) parties.set(name, `P${parties.size + 1}`);
    return parties.get(name)!;
  };
  const artistRef = party(release.artistName);
  const labelRef = party(release.label || release.artistName);
  for (const track of release.tracks) {
    for (const name of [...track.writers.map((w) => w.name), ...track.producers, ...track.featuredArtists]) party(name);
  }
  const trackRef = (t: ErnTrack) => `A${t.position}`;
  const coverRef = `A${release.tracks.length + 1}`;
  const year = release.releaseDate.slice(0, 4);

  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const root = doc.ele(ERN_NAMESPACE, "ern:NewReleaseMessage", {
    "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
    "xsi:schemaLocation": `${ERN_NAMESPACE} http://service.ddex.net/xml/ern/43/release-notification.xsd`,
    LanguageAndScriptCode: "en",
    AvsVersionId: "4",
  });

  const header = root.ele("MessageHeader");
  header.ele("MessageThreadId").txt(release.messageId);
  header.ele("MessageId").txt(release.messageId);
  const sender = header.ele("MessageSender");
  sender.ele("PartyId").txt(SENDER_DPID);
  partyName(sender, SENDER_NAME);
  const recipient = header.ele("MessageRecipient");
  recipient.ele("PartyId").txt("PADPIDA0000000000A");
  partyName(recipient, "Any store or aggregator");
  header.ele("MessageCreatedDateTime").txt(release.createdAt.toISOString().replace(/\.\d{3}Z$/, "Z"));
  header.ele("MessageControlType").txt("LiveMessage");

  const partyList = root.ele("PartyList");
  for (const [name, ref] of parties) {
    const p = partyList.ele("Party");
    p.ele("PartyReference").txt(ref);
    partyName(p, name);
  }

  const resources = root.ele("ResourceList");
  for (const track of release.tracks) {
    const recording = resources.ele("SoundRecording");
    recording.ele("ResourceReference").txt(trackRef(track));
    recording.ele("Type").txt("MusicalWorkSoundRecording");
    const edition = recording.ele("SoundRecordingEdition");
    edition.ele("ResourceId").ele("ISRC").txt(track.isrc);
    const pLine = edition.ele("PLine");
    pLine.ele("Year").txt(yearOf(release.pLine, year));
    pLine.ele("PLineText").txt(release.pLine);
    if (track.audio) {
      const details = edition.ele("TechnicalDetails");
      details.ele("TechnicalResourceDetailsReference").txt(`T${track.position}`);
      const file = details.ele("DeliveryFile");
      file.ele("Type").txt("AudioFile");
      file.ele("AudioCodecType").txt(track.audio.codec);
      file.ele("NumberOfChannels").txt(String(track.audio.channels));
      file.ele("SamplingRate", { UnitOfMeasure: "kHz" }).txt(String(track.audio.sampleRate / 1000));
      file.ele("BitsPerSample").txt(String(track.audio.bitDepth));
      const fileElement = file.ele("File");
      fileElement.ele("URI").txt(track.audio.uri);
      hashSum(fileElement, track.audio.md5);
    }
    recording.ele("DisplayTitleText").txt(track.version ? `${track.title} (${track.version})` : track.title);
    const title = recording.ele("DisplayTitle");
    title.ele("TitleText").txt(track.title);
    if (track.version) title.ele("SubTitle", { TypedSubTitle: "VersionTitle" }).txt(track.version);
    const artistName = track.featuredArtists.length ? `${release.artistName} feat. ${track.featuredArtists.join(", ")}` : release.artistName;
    recording.ele("DisplayArtistName").txt(artistName);
    const main = recording.ele("DisplayArtist", { SequenceNumber: "1" });
    main.ele("ArtistPartyReference").txt(artistRef);
    main.ele("DisplayArtistRole").txt("MainArtist");
    track.featuredArtists.forEach((name, index) => {
      const featured = recording.ele("DisplayArtist", { SequenceNumber: String(index + 2) });
      featured.ele("ArtistPartyReference").txt(party(name));
      featured.ele("DisplayArtistRole").txt("FeaturedArtist");
    });
    let sequence = 1;
    for (const writer of track.writers) {
      const contributor = recording.ele("Contributor", { SequenceNumber: String(sequence++) });
      contributor.ele("ContributorPartyReference").txt(party(writer.name));
      contributor.ele("Role").txt(writer.role);
    }
    for (const producer of track.producers) {
      const contributor = recording.ele("Contributor", { SequenceNumber: String(sequence++) });
      contributor.ele("ContributorPartyReference").txt(party(producer));
      contributor.ele("Role").txt("Producer");
    }
    recording.ele("Duration").txt(isoDuration(track.durationSeconds));
    recording.ele("ParentalWarningType").txt(track.explicit ? "Explicit" : "NotExplicit");
    if (track.languageCode) recording.ele("LanguageOfPerformance").txt(track.languageCode);
  }
  if (release.cover) {
    const image = resources.ele("Image");
    image.ele("ResourceReference").txt(coverRef);
    image.ele("Type").txt("FrontCoverImage");
    image
      .ele("ResourceId")
      .ele("ProprietaryId", { Namespace: `DPID:${SENDER_DPID}` })
      .txt(`${release.upc}-cover`);
    const details = image.ele("TechnicalDetails");
    details.ele("TechnicalResourceDetailsReference").txt(`T${release.tracks.length + 1}`);
    const file = details.ele("File");
    file.ele("URI").txt(release.cover.uri);
    hashSum(file, release.cover.md5);
  }

  const releaseList = root.ele("ReleaseList");
  const main = releaseList.ele("Release");
  main.ele("ReleaseReference").txt("R0");
  main.ele("ReleaseType").txt(RELEASE_TYPES[release.type]);
  main.ele("ReleaseId").ele("ICPN").txt(release.upc);
  main.ele("DisplayTitleText").txt(release.title);
  main.ele("DisplayTitle").ele("TitleText").txt(release.title);
  main.ele("DisplayArtistName").txt(release.artistName);
  const mainArtist = main.ele("DisplayArtist", { SequenceNumber: "1" });
  mainArtist.ele("ArtistPartyReference").txt(artistRef);
  mainArtist.ele("DisplayArtistRole").txt("MainArtist");
  main.ele("ReleaseLabelReference").txt(labelRef);
  const pLine = main.ele("PLine");
  pLine.ele("Year").txt(yearOf(release.pLine, year));
  pLine.ele("PLineText").txt(release.pLine);
  const cLine = main.ele("CLine");
  cLine.ele("Year").txt(yearOf(release.cLine, year));
  cLine.ele("CLineText").txt(release.cLine);
  main.ele("Duration").txt(isoDuration(release.tracks.reduce((sum, t) => sum + t.durationSeconds, 0)));
  if (release.genre) main.ele("Genre").ele("GenreText").txt(release.genre);
  if (release.originalReleaseDate) main.ele("OriginalReleaseDate").txt(release.originalReleaseDate);
  main.ele("ParentalWarningType").txt(release.explicit ? "Explicit" : "NotExplicit");
  const group = main.ele("ResourceGroup");
  const disc = group.ele("ResourceGroup");
  disc.ele("SequenceNumber").txt("1");
  for (const track of release.tracks) {
    const item = disc.ele("ResourceGroupContentItem");
    item.ele("SequenceNumber").txt(String(track.position));
    item.ele("ReleaseResourceReference").txt(trackRef(track));
  }
  if (release.cover) group.ele("LinkedReleaseResourceReference").txt(coverRef);

  for (const track of release.tracks) {
    const trackRelease = releaseList.ele("TrackRelease");
    trackRelease.ele("ReleaseReference").txt(`R${track.position}`);
    trackRelease.ele("ReleaseId").ele("ISRC").txt(track.isrc);
    trackRelease.ele("ReleaseResourceReference").txt(trackRef(track));
    trackRelease.ele("ReleaseLabelReference").txt(labelRef);
    if (release.genre) trackRelease.ele("Genre").ele("GenreText").txt(release.genre);
  }

  const deals = root.ele("DealList");
  for (const reference of ["R0", ...release.tracks.map((t) => `R${t.position}`)]) {
    const releaseDeal = deals.ele("ReleaseDeal");
    releaseDeal.ele("DealReleaseReference").txt(reference);
    for (const useType of ["OnDemandStream", "PermanentDownload"]) {
      const terms = releaseDeal.ele("Deal").ele("DealTerms");
      for (const territory of release.territories) terms.ele("TerritoryCode").txt(territory === "WW" ? "Worldwide" : territory);
      terms.ele("ValidityPeriod").ele("StartDate").txt(release.releaseDate);
      terms.ele("CommercialModelType").txt(useType === "OnDemandStream" ? "SubscriptionModel" : "PayAsYouGoModel");
      terms.ele("UseType").txt(useType);
    }
  }
  return doc.end({ prettyPrint: true });
}
