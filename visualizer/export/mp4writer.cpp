#include "mp4writer.h"

#include <QFile>
#include <QObject>

#ifdef CSTUDIO_HAVE_FFMPEG
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}
#endif

namespace cs::visualizer {

QString mp4UnsupportedMessage()
{
  return QObject::tr("this build has no MP4 support (FFmpeg's libraries were absent at build "
                     "time); export GIF or PNG instead");
}

#ifdef CSTUDIO_HAVE_FFMPEG

bool mp4Supported()
{
  return true;
}

namespace {

QString ffmpegError(int code)
{
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return QString::fromUtf8(text);
}

} // namespace

/// FFmpeg's state for one file, freed in reverse order of creation.
struct Mp4Writer::Encoder {
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  SwsContext* scaler = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  std::int64_t next = 0;
  bool headerWritten = false;

  ~Encoder()
  {
    av_packet_free(&packet);
    av_frame_free(&frame);
    sws_freeContext(scaler);
    avcodec_free_context(&codec);
    if (format && format->pb)
      avio_closep(&format->pb);
    avformat_free_context(format);
  }

  /// Sends `input` (null: flush) and writes every packet the encoder returns; an FFmpeg code.
  int encode(const AVFrame* input)
  {
    int code = avcodec_send_frame(codec, input);
    while (code >= 0) {
      code = avcodec_receive_packet(codec, packet);
      if (code == AVERROR(EAGAIN) || code == AVERROR_EOF)
        return 0;
      if (code < 0)
        return code;
      if (packet->duration == 0)
        packet->duration = 1; // one frame in the codec's time base
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      code = av_interleaved_write_frame(format, packet);
    }
    return code;
  }

  /// Opens the encoder for `size` at `fps`: libx264 when present, else MPEG-4 part 2.
  int openCodec(QSize size, int fps)
  {
    const AVCodec* encoder = avcodec_find_encoder_by_name("libx264");
    if (!encoder)
      encoder = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    if (!encoder)
      return AVERROR_ENCODER_NOT_FOUND;
    codec = avcodec_alloc_context3(encoder);
    codec->width = size.width();
    codec->height = size.height();
    codec->pix_fmt = AV_PIX_FMT_YUV420P;
    codec->time_base = AVRational{1, fps};
    codec->framerate = AVRational{fps, 1};
    codec->gop_size = fps * 2;
    if (encoder->id == AV_CODEC_ID_H264) {
      av_opt_set(codec->priv_data, "preset", "fast", 0);
      av_opt_set(codec->priv_data, "crf", "20", 0);
    } else {
      codec->bit_rate = std::int64_t{size.width()} * size.height() * fps / 4; // sharp text
    }
    if (format->oformat->flags & AVFMT_GLOBALHEADER)
      codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    return avcodec_open2(codec, encoder, nullptr);
  }
};

Mp4Writer::Mp4Writer(const QString& target, QSize size, int fps)
    : m_file(target), m_size(size), m_fps(std::max(fps, 1))
{
}

Mp4Writer::~Mp4Writer() = default;

QString Mp4Writer::encoderName() const
{
  return m_encoder && m_encoder->codec ? QString::fromUtf8(m_encoder->codec->codec->name)
                                       : QString();
}

bool Mp4Writer::open(QString* error)
{
  if (m_size.width() % 2 != 0 || m_size.height() % 2 != 0) {
    *error = QObject::tr("cannot write %1: MP4 needs an even width and height, not %2x%3")
                 .arg(m_file.target())
                 .arg(m_size.width())
                 .arg(m_size.height());
    return false;
  }
  if (!m_file.open(error))
    return false;
  av_log_set_level(AV_LOG_ERROR); // the encoders' statistics are not for our users
  m_encoder = std::make_unique<Encoder>();
  Encoder& e = *m_encoder;
  const QByteArray path = QFile::encodeName(m_file.stagingPath());
  int code = avformat_alloc_output_context2(&e.format, nullptr, "mp4", path.constData());
  if (code >= 0)
    code = e.openCodec(m_size, m_fps);
  if (code >= 0) {
    e.stream = avformat_new_stream(e.format, nullptr);
    code =
        e.stream ? avcodec_parameters_from_context(e.stream->codecpar, e.codec) : AVERROR(ENOMEM);
  }
  if (code >= 0) {
    e.stream->time_base = e.codec->time_base;
    code = avio_open(&e.format->pb, path.constData(), AVIO_FLAG_WRITE);
  }
  if (code >= 0)
    code = avformat_write_header(e.format, nullptr);
  e.headerWritten = code >= 0;
  e.frame = av_frame_alloc();
  e.packet = av_packet_alloc();
  if (code >= 0 && (!e.frame || !e.packet))
    code = AVERROR(ENOMEM);
  if (code >= 0) {
    e.frame->format = AV_PIX_FMT_YUV420P;
    e.frame->width = m_size.width();
    e.frame->height = m_size.height();
    code = av_frame_get_buffer(e.frame, 0);
  }
  e.scaler =
      sws_getContext(m_size.width(), m_size.height(), AV_PIX_FMT_RGB32, m_size.width(),
                     m_size.height(), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
  if (code >= 0 && !e.scaler)
    code = AVERROR(EINVAL);
  if (code < 0) {
    *error = QObject::tr("cannot write %1: %2").arg(m_file.target(), ffmpegError(code));
    return false;
  }
  return true;
}

bool Mp4Writer::addFrame(const QImage& frame, QString* error)
{
  Encoder& e = *m_encoder;
  const QImage rgb = frame.convertToFormat(QImage::Format_RGB32).scaled(m_size);
  int code = av_frame_make_writable(e.frame);
  if (code >= 0) {
    const uint8_t* planes[1] = {rgb.constBits()};
    const int strides[1] = {static_cast<int>(rgb.bytesPerLine())};
    sws_scale(e.scaler, planes, strides, 0, m_size.height(), e.frame->data, e.frame->linesize);
    e.frame->pts = e.next++;
    code = e.encode(e.frame);
  }
  if (code < 0) {
    *error = QObject::tr("cannot write %1: %2").arg(m_file.target(), ffmpegError(code));
    return false;
  }
  return true;
}

bool Mp4Writer::finish(QString* error)
{
  Encoder& e = *m_encoder;
  int code = e.encode(nullptr);
  if (code >= 0)
    code = av_write_trailer(e.format);
  if (code >= 0)
    code = avio_closep(&e.format->pb);
  if (code < 0) {
    *error = QObject::tr("cannot write %1: %2").arg(m_file.target(), ffmpegError(code));
    return false;
  }
  m_encoder.reset();
  return m_file.commit(error);
}

#else // no FFmpeg

bool mp4Supported()
{
  return false;
}

struct Mp4Writer::Encoder {
};

Mp4Writer::Mp4Writer(const QString& target, QSize size, int fps)
    : m_file(target), m_size(size), m_fps(fps)
{
}

Mp4Writer::~Mp4Writer() = default;

QString Mp4Writer::encoderName() const
{
  return {};
}

bool Mp4Writer::open(QString* error)
{
  *error = QObject::tr("cannot write %1: %2").arg(m_file.target(), mp4UnsupportedMessage());
  return false;
}

bool Mp4Writer::addFrame(const QImage&, QString* error)
{
  return open(error);
}

bool Mp4Writer::finish(QString* error)
{
  return open(error);
}

#endif

} // namespace cs::visualizer
