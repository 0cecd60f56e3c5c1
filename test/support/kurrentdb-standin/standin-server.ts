/**
 * PROTOCOL STAND-IN, NOT KURRENTDB. A small in-memory gRPC server speaking the KurrentDB
 * `event_store.client.streams.Streams` protocol, for running the event store contract suite
 * against the KurrentDB adapter where no real server can be installed (CI). It is built from
 * the protocol definitions the client package ships: @kurrent/kurrentdb-client publishes the
 * code generated from its .proto files (message classes and the service definition), not the
 * .proto files themselves, so the stand-in serves exactly the wire format the client speaks.
 *
 * Implemented: Append (v1, expected revision), Read of one stream forwards and backwards, Read
 * of $all both ways with a stream-name or event-type filter, the $all subscription
 * (confirmation, catch-up, CaughtUp, then live), Tombstone (hard delete: reads, appends and a
 * second tombstone of the stream then fail as the server's do, with its `stream-deleted`
 * exception; the tombstone record itself is not modelled in $all), and stream metadata's
 * truncate-before on reads. Everything else (BatchAppend, ServerFeatures, soft deletes, stream
 * subscriptions, persistent subscriptions, auth, TLS) answers
 * UNIMPLEMENTED, which the client treats as an older server. Run a real KurrentDB to test
 * anything beyond that: set KURRENTDB_CONNECTION_STRING.
 */
import * as grpc from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { Timestamp } from 'google-protobuf/google/protobuf/timestamp_pb';
import {
  Empty,
  StreamIdentifier,
  UUID,
} from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb';
import { StreamsService } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_grpc_pb';
import {
  AppendReq,
  AppendResp,
  ReadReq,
  ReadResp,
  TombstoneReq,
  TombstoneResp,
} from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb';
import { Expected, LoggedEvent, ProposedEvent, StandinLog } from './standin-log';

type Options = ReadReq.Options;
type Filter = (event: LoggedEvent) => boolean;

export interface KurrentDbStandin {
  readonly connectionString: string;
  readonly log: StandinLog;
  /** Fails every open $all subscription with UNAVAILABLE, as a server restart would. */
  dropSubscriptions(): void;
  /** Ends every call and stops listening. */
  stop(): Promise<void>;
}

type Subscriptions = Set<grpc.ServerWritableStream<ReadReq, ReadResp>>;

export async function startKurrentDbStandin(): Promise<KurrentDbStandin> {
  const log = new StandinLog();
  const subscriptions: Subscriptions = new Set();
  const server = new grpc.Server();
  server.addService(StreamsService, {
    append: (call: grpc.ServerReadableStream<AppendReq, AppendResp>, done: AppendCallback) =>
      handleAppend(log, call, done),
    read: (call: grpc.ServerWritableStream<ReadReq, ReadResp>) =>
      handleRead(log, subscriptions, call),
    tombstone: (
      call: grpc.ServerUnaryCall<TombstoneReq, TombstoneResp>,
      done: grpc.sendUnaryData<TombstoneResp>,
    ) => handleTombstone(log, call, done),
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    connectionString: `kurrentdb://127.0.0.1:${port}?tls=false`,
    log,
    dropSubscriptions: () => {
      for (const call of subscriptions) {
        const details = 'stand-in dropped the subscription';
        call.emit('error', { code: grpc.status.UNAVAILABLE, details });
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}

type AppendCallback = grpc.sendUnaryData<AppendResp>;

function handleAppend(
  log: StandinLog,
  call: grpc.ServerReadableStream<AppendReq, AppendResp>,
  done: AppendCallback,
): void {
  let options: AppendReq.Options | undefined;
  const proposed: ProposedEvent[] = [];
  call.on('data', (request: AppendReq) => {
    if (request.hasOptions()) options = request.getOptions();
    const message = request.getProposedMessage();
    if (!message) return;
    const metadata = message.getMetadataMap();
    proposed.push({
      id: uuidToString(message.getId()),
      type: metadata.get('type') ?? '',
      contentType: metadata.get('content-type') ?? 'application/octet-stream',
      data: message.getData_asU8(),
      customMetadata: message.getCustomMetadata_asU8(),
    });
  });
  call.on('error', () => undefined);
  call.on('end', () => {
    if (!options?.getStreamIdentifier()) {
      return done({ code: grpc.status.INVALID_ARGUMENT, details: 'append without options' });
    }
    const streamId = streamName(options.getStreamIdentifier());
    if (log.isTombstoned(streamId)) return done(streamDeleted(streamId));
    const expected = expectedFrom(options);
    const outcome = log.append(streamId, expected, proposed);
    const response = new AppendResp();
    if (outcome.ok) {
      const success = new AppendResp.Success();
      if (outcome.revision === -1) success.setNoStream(new Empty());
      else success.setCurrentRevision(String(outcome.revision));
      const position = new AppendResp.Position();
      position.setCommitPosition(String(outcome.position));
      position.setPreparePosition(String(outcome.position));
      success.setPosition(position);
      response.setSuccess(success);
    } else {
      const wrong = new AppendResp.WrongExpectedVersion();
      if (outcome.current === 'no_stream') wrong.setCurrentNoStream(new Empty());
      else wrong.setCurrentRevision(String(outcome.current));
      if (expected === 'any') wrong.setExpectedAny(new Empty());
      else if (expected === 'no_stream') wrong.setExpectedNoStream(new Empty());
      else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new Empty());
      else wrong.setExpectedRevision(String(expected));
      response.setWrongExpectedVersion(wrong);
    }
    done(null, response);
  });
}

/** Tombstones the stream whatever its revision (the adapter asks with ANY). */
function handleTombstone(
  log: StandinLog,
  call: grpc.ServerUnaryCall<TombstoneReq, TombstoneResp>,
  done: grpc.sendUnaryData<TombstoneResp>,
): void {
  const streamId = streamName(call.request.getOptions()?.getStreamIdentifier());
  if (!log.tombstone(streamId)) return done(streamDeleted(streamId));
  const response = new TombstoneResp();
  response.setNoPosition(new Empty());
  done(null, response);
}

/** The server's answer to any use of a tombstoned stream (the client's StreamDeletedError). */
function streamDeleted(streamId: string): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  metadata.set('exception', 'stream-deleted');
  metadata.set('stream-name', streamId);
  const details = `Event stream '${streamId}' is deleted.`;
  return { code: grpc.status.FAILED_PRECONDITION, details, metadata };
}

function expectedFrom(options: AppendReq.Options): Expected {
  if (options.hasNoStream()) return 'no_stream';
  if (options.hasStreamExists()) return 'stream_exists';
  if (options.hasRevision()) return BigInt(options.getRevision());
  return 'any';
}

function handleRead(
  log: StandinLog,
  subscriptions: Subscriptions,
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
): void {
  const options = call.request.getOptions();
  const unsupported = (details: string): void =>
    void call.emit('error', { code: grpc.status.UNIMPLEMENTED, details });
  if (!options) return unsupported('read without options');
  const backwards = options.getReadDirection() === ReadReq.Options.ReadDirection.BACKWARDS;
  const structuredIds = options.getUuidOption()?.hasStructured() ?? false;
  const stream = options.getStream();
  if (backwards && options.hasSubscription()) return unsupported('a subscription reads forwards');
  if (stream) {
    if (options.hasSubscription()) return unsupported('the stand-in has no stream subscriptions');
    return readStream(log, call, stream, Number(options.getCount()), backwards, structuredIds);
  }
  const named = filterFrom(options);
  if (named === null) return unsupported('unsupported filter');
  const filter: Filter = (event) => !event.scavenged && named(event);
  if (options.hasSubscription()) {
    subscriptions.add(call);
    call.on('close', () => subscriptions.delete(call));
    return subscribeAll(log, call, options, filter, structuredIds);
  }
  if (backwards) return readAllBackwards(log, call, options, filter, structuredIds);
  readAll(log, call, options, filter, structuredIds);
}

function readStream(
  log: StandinLog,
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
  options: ReadReq.Options.StreamOptions,
  count: number,
  backwards: boolean,
  structuredIds: boolean,
): void {
  const identifier = options.getStreamIdentifier();
  if (log.isTombstoned(streamName(identifier))) {
    return void call.emit('error', streamDeleted(streamName(identifier)));
  }
  const from = options.hasRevision()
    ? Number(options.getRevision())
    : options.hasEnd()
      ? Infinity
      : -Infinity;
  const events = log.readStream(streamName(identifier));
  if (events === undefined) {
    const notFound = new ReadResp.StreamNotFound();
    notFound.setStreamIdentifier(identifier);
    const response = new ReadResp();
    response.setStreamNotFound(notFound);
    call.write(response);
    return void call.end();
  }
  // From `from` inclusive, towards the end (forwards) or the start (backwards).
  const selected = backwards
    ? events.filter((e) => e.revision <= from).reverse()
    : events.filter((e) => e.revision >= from);
  void writeAll(call, selected.slice(0, count), structuredIds);
}

function readAll(
  log: StandinLog,
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
  options: Options,
  filter: Filter,
  structuredIds: boolean,
): void {
  const all = options.getAll();
  const count = Number(options.getCount());
  // A forward $all read includes the event at its start position.
  void writeAll(call, collect(log, startIndex(log, all, true), +1, count, filter), structuredIds);
}

/** Newest first, from the end or from before a position (used for the head position). */
function readAllBackwards(
  log: StandinLog,
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
  options: Options,
  filter: Filter,
  structuredIds: boolean,
): void {
  const all = options.getAll();
  const count = Number(options.getCount());
  let index = all?.hasPosition() ? startIndex(log, all, true) - 1 : log.length - 1;
  if (all?.hasStart()) index = -1;
  void writeAll(call, collect(log, index, -1, count, filter), structuredIds);
}

/** Up to `count` events that pass `filter`, walking the log from `index` by `step` (+1 or -1). */
function collect(
  log: StandinLog,
  index: number,
  step: 1 | -1,
  count: number,
  filter: Filter,
): LoggedEvent[] {
  const events: LoggedEvent[] = [];
  for (; index >= 0 && index < log.length && events.length < count; index += step) {
    const event = log.at(index)!;
    if (filter(event)) events.push(event);
  }
  return events;
}

function subscribeAll(
  log: StandinLog,
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
  options: Options,
  filter: Filter,
  structuredIds: boolean,
): void {
  // A subscription starts after its position: the event at that position was already seen.
  let next = startIndex(log, options.getAll(), false);
  let caughtUp = false;
  let pumping = false;
  let ended = false;
  const confirmation = new ReadResp.SubscriptionConfirmation();
  confirmation.setSubscriptionId(randomUUID());
  const confirmed = new ReadResp();
  confirmed.setConfirmation(confirmation);
  call.write(confirmed);

  // One pump at a time; it honours the transport's back-pressure and runs again on every append.
  const pump = async (): Promise<void> => {
    if (pumping || ended) return;
    pumping = true;
    try {
      while (!ended && next < log.length) {
        const event = log.at(next++)!;
        if (filter(event) && !call.write(eventResponse(event, structuredIds)))
          await new Promise((resolve) => call.once('drain', resolve));
      }
      if (!caughtUp && !ended) {
        caughtUp = true;
        call.write(caughtUpResponse(log.lastPosition()));
      }
    } finally {
      pumping = false;
    }
    if (!ended && next < log.length) void pump();
  };
  const unregister = log.onAppend(() => void pump());
  const stop = (): void => {
    ended = true;
    unregister();
  };
  call.on('cancelled', stop);
  call.on('close', stop);
  call.on('error', stop);
  void pump();
}

function startIndex(
  log: StandinLog,
  all: ReadReq.Options.AllOptions | undefined,
  inclusive: boolean,
): number {
  if (!all || all.hasStart()) return 0;
  if (all.hasEnd()) return log.length;
  const position = BigInt(all.getPosition()!.getCommitPosition());
  const index = log.indexAtOrAfter(position);
  return !inclusive && log.at(index)?.position === position ? index + 1 : index;
}

/** The filter of a $all read; null when the request asks for something the stand-in lacks. */
function filterFrom(options: Options): Filter | null {
  const filter = options.getFilter();
  if (!filter) return () => true;
  const expression = filter.getStreamIdentifier() ?? filter.getEventType();
  if (!expression) return null;
  const field = filter.hasStreamIdentifier()
    ? (event: LoggedEvent) => event.streamId
    : (event: LoggedEvent) => event.type;
  const prefixes = expression.getPrefixList();
  if (prefixes.length > 0) {
    return (event) => prefixes.some((prefix) => field(event).startsWith(prefix));
  }
  const regex = new RegExp(expression.getRegex());
  return (event) => regex.test(field(event));
}

async function writeAll(
  call: grpc.ServerWritableStream<ReadReq, ReadResp>,
  events: readonly LoggedEvent[],
  structuredIds: boolean,
): Promise<void> {
  for (const event of events) {
    if (!call.write(eventResponse(event, structuredIds)))
      await new Promise((resolve) => call.once('drain', resolve));
  }
  call.end();
}

function eventResponse(event: LoggedEvent, structuredIds: boolean): ReadResp {
  const recorded = new ReadResp.ReadEvent.RecordedEvent();
  recorded.setId(uuidMessage(event.id, structuredIds));
  const identifier = new StreamIdentifier();
  identifier.setStreamName(Buffer.from(event.streamId, 'utf8'));
  recorded.setStreamIdentifier(identifier);
  recorded.setStreamRevision(String(event.revision));
  recorded.setCommitPosition(String(event.position));
  recorded.setPreparePosition(String(event.position));
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('content-type', event.contentType)
    // .NET ticks (100 ns) since the Unix epoch, as the server sends them.
    .set('created', String(BigInt(event.createdMs) * 10_000n));
  recorded.setData(event.data);
  recorded.setCustomMetadata(event.customMetadata);
  const read = new ReadResp.ReadEvent();
  read.setEvent(recorded);
  read.setCommitPosition(String(event.position));
  const response = new ReadResp();
  response.setEvent(read);
  return response;
}

function caughtUpResponse(position: bigint | undefined): ReadResp {
  const caughtUp = new ReadResp.CaughtUp();
  caughtUp.setTimestamp(Timestamp.fromDate(new Date()));
  if (position !== undefined) {
    const at = new ReadResp.Position();
    at.setCommitPosition(String(position));
    at.setPreparePosition(String(position));
    caughtUp.setPosition(at);
  }
  const response = new ReadResp();
  response.setCaughtUp(caughtUp);
  return response;
}

function streamName(identifier: StreamIdentifier | undefined): string {
  return Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');
}

function uuidToString(uuid: UUID | undefined): string {
  if (!uuid) return '';
  if (uuid.hasString()) return uuid.getString();
  const structured = uuid.getStructured()!;
  const hex = (bits: string) => BigInt.asUintN(64, BigInt(bits)).toString(16).padStart(16, '0');
  const all = hex(structured.getMostSignificantBits()) + hex(structured.getLeastSignificantBits());
  return `${all.slice(0, 8)}-${all.slice(8, 12)}-${all.slice(12, 16)}-${all.slice(16, 20)}-${all.slice(20)}`;
}

function uuidMessage(id: string, structuredIds: boolean): UUID {
  const uuid = new UUID();
  if (!structuredIds) {
    uuid.setString(id);
    return uuid;
  }
  const hex = id.replace(/-/g, '');
  const structured = new UUID.Structured();
  structured.setMostSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`)).toString());
  structured.setLeastSignificantBits(BigInt.asIntN(64, BigInt(`0x${hex.slice(16)}`)).toString());
  uuid.setStructured(structured);
  return uuid;
}
