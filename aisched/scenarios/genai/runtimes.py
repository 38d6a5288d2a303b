"""Sourced inference times of the `genai` candidate models, for ``workload="gpu_priced"``.

Every model id of :data:`aisched.scenarios.genai.generator.MODEL_POOLS` has a :class:`Runtime`: the
seconds of one request (one image, one video, one answer, one utterance) as published for a stated GPU,
batch size and precision, with its source and, where the figure is not of the model itself, the model it
is a proxy for and why. All sources were read on 2026-11-26:

[diffusers-pt2]
    Hugging Face diffusers, ``docs/source/en/optimization/torch2.0.mdx`` (benchmark section, diffusers
    0.17.0.dev0): iterations per second of the Stable Diffusion v1.5 pipelines, fp16, per GPU and batch
    size (https://github.com/huggingface/diffusers, the "Benchmark" tables; torch 2.0, no compile).
[sdxl-blog]
    S. Paul, S. Liu, "Exploring simple optimizations for SDXL", Hugging Face blog
    (https://huggingface.co/blog/simple_sdxl_optimizations): A100 40 GB, fp16 + SDPA (the default),
    4 images per call at the default 50 steps, 11,413.0 ms.
[detr-readme]
    facebookresearch/detr ``README.md`` model zoo (https://github.com/facebookresearch/detr): inference
    time over the first 100 COCO val5k images, 0.036 s (R50) and 0.050 s (R101); the GPU is not stated.
[lmdeploy]
    InternLM/lmdeploy ``docs/en/benchmark/a100_fp16.md`` (https://github.com/InternLM/lmdeploy): llama2-7b
    fp16 on one A100-80G, batch 1: 102.21 output tokens/s at 128 prompt / 128 output tokens; the same file's
    request-throughput benchmark (3,000 prompts) gives 2,562.435 output tokens/s at 10.275 requests/s,
    i.e. 249.4 generated tokens per request.
[bark-blog]
    Y. Lacombe, "Optimizing Bark using Transformers", Hugging Face blog
    (https://huggingface.co/blog/optimizing-bark): suno/bark (large), NVIDIA TITAN RTX 24 GB, batch 1, at
    most 256 new tokens, no optimization: 10.48 s latency (100-sample benchmark).
[whisper-blog]
    S. Gandhi, "Speculative Decoding for 2x Faster Whisper Inference", Hugging Face blog
    (https://huggingface.co/blog/whisper-speculative-decoding): openai/whisper-large-v2, fp16, SDPA,
    73 LibriSpeech validation samples transcribed in 73.0 s (1.0 s a sample); the GPU is not stated.
[whisper-readme]
    openai/whisper ``README.md`` (https://github.com/openai/whisper): speed relative to large, measured
    transcribing English speech on an A100: base ~7x.
[diffusers-pix2pix]
    diffusers ``StableDiffusionInstructPix2PixPipeline``: ``num_inference_steps`` defaults to 100, three
    guidance branches per step.
[spec sheets]
    Memory bandwidth (GB/s) from NVIDIA's specification pages: RTX 4090 1008, A100 80GB SXM 2039,
    TITAN RTX 672, Tesla V100 SXM2 900, RTX 3060 360.

Conversion to slots (:func:`slots`): seconds on the reference GPU (:data:`REFERENCE_GPU`, the RTX 4090 of
the paper's ``homo-M`` edge: the runtime ``f_{m,i,j}`` of IP (5) has no edge index, so one GPU stands for
all), ``ceil(seconds / SLOT_SECONDS)`` and at least 1 (a task holds whole 5-second slots). Between GPUs:
compute-bound models (diffusion, encoders) scale by the measured ratio of the Stable Diffusion v1.5
text-to-image rate at batch 1 in [diffusers-pt2] (:data:`SD_ITERATIONS_PER_SECOND`); autoregressive
decoding at batch 1 is memory-bound and scales by memory bandwidth ([spec sheets],
:data:`MEMORY_BANDWIDTH_GBS`). A figure whose GPU is not stated is not scaled; every such figure is
1.0 s or less, one slot unless its GPU was more than 5x faster than an RTX 4090.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["MEMORY_BANDWIDTH_GBS", "REFERENCE_GPU", "RUNTIMES", "Runtime", "SD_ITERATIONS_PER_SECOND",
           "SLOT_SECONDS", "reference_seconds", "runtime_slots", "slots"]

SLOT_SECONDS = 5.0
REFERENCE_GPU = "RTX 4090"
NOT_STATED = "not stated"

#: [diffusers-pt2], SD - txt2img, batch 1, torch 2.0, no compile (iterations per second).
SD_ITERATIONS_PER_SECOND = MappingProxyType({"RTX 4090": 40.5, "RTX 3090": 22.56, "A100": 21.66,
                                             "V100": 18.99, "T4": 6.9})
#: [spec sheets], GB/s.
MEMORY_BANDWIDTH_GBS = MappingProxyType({"RTX 4090": 1008.0, "A100-80G": 2039.0, "TITAN RTX": 672.0,
                                         "V100": 900.0, "RTX 3060": 360.0})

# [diffusers-pt2] rows on the RTX 4090 (iterations per second), diffusers' default 50 steps
_SD_TXT2IMG_BS1, _SD_IMG2IMG_BS1, _SD_CONTROLNET_BS1 = 40.5, 40.39, 29.27
_SD_TXT2IMG_BS4, _SD_TXT2IMG_BS16 = 12.62, 3.17
_STEPS = 50
# [lmdeploy]: batch 1, 128 / 128 tokens; tokens a request generates in its request-throughput run
_LLAMA7B_TOKENS_PER_S = 102.21
_TOKENS_PER_REQUEST = 2562.435 / 10.275


@dataclass(frozen=True)
class Runtime:
    """One request's inference time as published.

    Attributes
    ----------
    seconds
        Seconds of one request on ``gpu`` (the source's figure, or the stated arithmetic on it).
    gpu
        The GPU of the figure (a key of :data:`SD_ITERATIONS_PER_SECOND` or :data:`MEMORY_BANDWIDTH_GBS`,
        or ``"not stated"``).
    bound
        ``"compute"`` (scaled by the diffusion rate ratio) or ``"memory"`` (by memory bandwidth).
    source
        Where the figure stands, with batch size and precision.
    proxy
        Empty when the figure is of this model; else the model measured and why it stands in.
    """

    seconds: float
    gpu: str
    bound: str
    source: str
    proxy: str = ""


_SD15 = Runtime(_STEPS / _SD_TXT2IMG_BS1, "RTX 4090", "compute",
                "[diffusers-pt2] SD - txt2img, RTX 4090, batch 1, fp16: 40.5 it/s x 50 steps")
_LLAMA_128 = Runtime(128 / _LLAMA7B_TOKENS_PER_S, "A100-80G", "memory",
                     "[lmdeploy] llama2-7b, A100-80G, batch 1, fp16: 128 tokens at 102.21 tokens/s")
_WHISPER_LARGE = Runtime(73.0 / 73, NOT_STATED, "compute",
                         "[whisper-blog] whisper-large-v2, fp16, batch 1: 73 samples in 73.0 s")
_WHISPER_BASE = Runtime(_WHISPER_LARGE.seconds / 7, NOT_STATED, "compute",
                        "[whisper-blog] 1.0 s a sample for large-v2 / 7, base's relative speed in [whisper-readme]")
_DETR_R101 = Runtime(0.050, NOT_STATED, "compute", "[detr-readme] DETR R101: 0.050 s an image")
_BARK = Runtime(10.48, "TITAN RTX", "memory",
                "[bark-blog] suno/bark, TITAN RTX, batch 1, no optimization: 10.48 s (<= 256 new tokens)")


def _as_proxy(base: Runtime, why: str) -> Runtime:
    return Runtime(base.seconds, base.gpu, base.bound, base.source, why)


_SINGLE_FORWARD = ("no published figure found; proxy: DETR R101, the slowest single-forward model with a figure "
                   "here (one forward pass, no autoregressive decoding); even 100x it stays in one slot")
_SHORT_DECODE = ("no published figure found; proxy: whisper-large-v2 (1.55B encoder + autoregressive text "
                 "decoder, short output), at least this model's size: an upper bound")
_SEQ2SEQ = ("no published figure found; proxy: Llama-2-7B generating 128 tokens at batch 1 ([lmdeploy]), a "
            "larger autoregressive decoder (decoding is memory-bound, time grows with weight bytes): an upper bound")

#: model id -> its sourced :class:`Runtime` (every model of every ``MODEL_POOLS`` pool).
RUNTIMES: MappingProxyType[str, Runtime] = MappingProxyType({
    # text-to-image
    "runwayml/stable-diffusion-v1-5": _SD15,
    "stabilityai/stable-diffusion-2-1": _as_proxy(
        _SD15, "proxy: SD v1.5 (same 865M UNet architecture); 2-1 defaults to 768 px, 2.25x the latents, "
               "still under 5 s at that ratio"),
    "stabilityai/stable-diffusion-xl-base-1.0": Runtime(
        11.413 / 4, "A100", "compute",
        "[sdxl-blog] A100 40 GB, fp16 + SDPA, 4 images in 11,413.0 ms at 50 steps: 2.85 s an image (batch 4; "
        "at batch 4 [diffusers-pt2] has the 4090 1.09x an A100, at batch 1 1.87x; one slot either way)"),
    # image-to-image
    "timbrooks/instruct-pix2pix": Runtime(
        100 / _SD_IMG2IMG_BS1, "RTX 4090", "compute",
        "[diffusers-pt2] SD - img2img, RTX 4090, batch 1: 40.39 it/s x 100 steps ([diffusers-pix2pix])",
        "proxy: SD v1.5 img2img (same UNet); pix2pix's third guidance branch is not counted (a lower bound)"),
    "lllyasviel/sd-controlnet-canny": Runtime(
        _STEPS / _SD_CONTROLNET_BS1, "RTX 4090", "compute",
        "[diffusers-pt2] SD - controlnet (sd-controlnet-canny + SD v1.5), RTX 4090, batch 1: 29.27 it/s x 50"),
    "lambdalabs/sd-image-variations-diffusers": _as_proxy(
        _SD15, "proxy: SD v1.5 text-to-image (same UNet; a CLIP image encoder replaces the text encoder)"),
    # text-to-video
    "damo-vilab/text-to-video-ms-1.7b": Runtime(
        _STEPS / _SD_TXT2IMG_BS4, "RTX 4090", "compute",
        "[diffusers-pt2] SD - txt2img, RTX 4090, batch 4: 12.62 it/s x 50 steps",
        "proxy: 16 frames of 32x32 latents (256 px, the pipeline's default) = the latents of 4 SD images "
        "(64x64); the UNet3D's temporal layers are not counted (a lower bound)"),
    "cerspense/zeroscope_v2_576w": Runtime(
        _STEPS / _SD_TXT2IMG_BS16, "RTX 4090", "compute",
        "[diffusers-pt2] SD - txt2img, RTX 4090, batch 16: 3.17 it/s x 50 steps",
        "proxy: 24 frames of 72x40 latents (576x320, the model card's training size) = 16.9x the latents of "
        "one SD image; SD at batch 16; temporal layers not counted (a lower bound)"),
    # image-to-text, visual question answering, document question answering
    "nlpconnect/vit-gpt2-image-captioning": _as_proxy(_WHISPER_LARGE, _SHORT_DECODE),
    "Salesforce/blip-image-captioning-large": _as_proxy(_WHISPER_LARGE, _SHORT_DECODE),
    "Salesforce/blip2-opt-2.7b": _as_proxy(_LLAMA_128, _SEQ2SEQ),
    "dandelin/vilt-b32-finetuned-vqa": _as_proxy(_DETR_R101, _SINGLE_FORWARD),
    "Salesforce/blip-vqa-base": _as_proxy(_WHISPER_LARGE, _SHORT_DECODE),
    "impira/layoutlm-document-qa": _as_proxy(_DETR_R101, _SINGLE_FORWARD),
    "naver-clova-ix/donut-base-finetuned-docvqa": _as_proxy(_WHISPER_LARGE, _SHORT_DECODE),
    # vision
    "facebook/detr-resnet-50": Runtime(0.036, NOT_STATED, "compute", "[detr-readme] DETR R50: 0.036 s an image"),
    "facebook/detr-resnet-101": _DETR_R101,
    "Intel/dpt-large": _as_proxy(_DETR_R101, _SINGLE_FORWARD),
    # text generation
    "google/flan-t5-large": _as_proxy(_LLAMA_128, _SEQ2SEQ),
    "meta-llama/Llama-2-7b-chat-hf": Runtime(
        _TOKENS_PER_REQUEST / _LLAMA7B_TOKENS_PER_S, "A100-80G", "memory",
        "[lmdeploy] llama2-7b, A100-80G, batch 1, fp16: 249.4 tokens a request at 102.21 tokens/s"),
    "mistralai/Mistral-7B-Instruct-v0.1": Runtime(
        _TOKENS_PER_REQUEST / _LLAMA7B_TOKENS_PER_S, "A100-80G", "memory",
        "[lmdeploy] llama2-7b, A100-80G, batch 1, fp16: 249.4 tokens a request at 102.21 tokens/s",
        "proxy: Llama-2-7B (same decoder architecture, 7.2B against 6.7B parameters)"),
    # text (summarisation, translation, ...)
    "facebook/bart-large-cnn": _as_proxy(_LLAMA_128, _SEQ2SEQ),
    "t5-base": _as_proxy(_LLAMA_128, _SEQ2SEQ),
    "facebook/nllb-200-distilled-1.3B": _as_proxy(_LLAMA_128, _SEQ2SEQ),
    # speech recognition
    "openai/whisper-base": _WHISPER_BASE,
    "openai/whisper-large-v2": _WHISPER_LARGE,
    "facebook/wav2vec2-base-960h": _as_proxy(
        _WHISPER_BASE, "proxy: whisper-base (speech encoder of the same size class, 74M against 95M; "
                       "wav2vec2's CTC head decodes nothing autoregressively: an upper bound)"),
    # text-to-speech
    "microsoft/speecht5_tts": _as_proxy(
        _WHISPER_LARGE, "no published figure found; proxy: whisper-large-v2 (encoder-decoder speech transformer; "
                        "~5 s of speech is ~156 steps of SpeechT5's 6-layer decoder, a LibriSpeech utterance "
                        "~30 steps of whisper-large's 32 layers: comparable decoder work)"),
    "suno/bark": _BARK,
    # audio
    "MIT/ast-finetuned-audioset-10-10-0.4593": _as_proxy(_DETR_R101, _SINGLE_FORWARD),
    "speechbrain/sepformer-wham": _as_proxy(_DETR_R101, _SINGLE_FORWARD),
    "facebook/musicgen-small": _as_proxy(
        _BARK, "no published figure found; proxy: suno/bark (autoregressive transformers over EnCodec "
               "codebooks, the same architecture class; both generate seconds of audio)"),
})


def reference_seconds(runtime: Runtime) -> float:
    """``runtime.seconds`` moved to :data:`REFERENCE_GPU` by the scaling of its ``bound`` (module docstring)."""
    if runtime.gpu == NOT_STATED:
        return runtime.seconds
    if runtime.bound == "memory":
        return runtime.seconds * MEMORY_BANDWIDTH_GBS[runtime.gpu] / MEMORY_BANDWIDTH_GBS[REFERENCE_GPU]
    return runtime.seconds * SD_ITERATIONS_PER_SECOND[runtime.gpu] / SD_ITERATIONS_PER_SECOND[REFERENCE_GPU]


def runtime_slots(runtime: Runtime, scale: float = 1.0) -> int:
    """Whole slots a request holds on :data:`REFERENCE_GPU`: ``max(1, ceil(scale x seconds / SLOT_SECONDS))``.

    ``scale`` (default 1) multiplies the seconds before rounding: the generator's ``runtime_scale``, a
    silent parameter (the paper states no runtime; its Fig. 3 example has 3-7 slots).
    """
    return max(1, math.ceil(scale * reference_seconds(runtime) / SLOT_SECONDS - 1e-9))


def slots(model: str, scale: float = 1.0) -> int:
    """:func:`runtime_slots` of ``RUNTIMES[model]`` (``scale``: see there)."""
    return runtime_slots(RUNTIMES[model], scale)
